// Part of exercise 4's harness (do not edit).
// Read from the participant's code: state that every FileCounter shares (a `static var`, a global
// `var`, a `var` of an object held by a `static let`), such as a map from each file to its lock,
// and whether it is used outside any lock. Two
// increments of a new file that both find no lock in an unguarded map each store one (each then
// holds a lock of its own), or change the dictionary at once and corrupt it; the window is a few
// instructions wide, once per new file, so the concurrent run shows it only by luck (a crash, lost
// increments) and the code is read instead.
import Foundation

/// Reads the participant's code for state every FileCounter shares. Its names are nested, so that
/// they cannot clash with a name the participant's file (compiled in the same module) declares.
enum SharedStateReading {
    /// One use of shared state outside any lock: the variable, what the code does with it there
    /// (`changed`, `read`) and the function it is in.
    struct Use {
        var name: String
        var declaration: String
        var action: String
        var function: String
        /// Whether it is a dictionary (`[String: NSLock]`): a map from each file to its lock.
        var isMap: Bool
    }

    /// The first use of shared mutable state outside any lock in `code` (participantCode's text,
    /// without comments and strings), nil when there is none. State that no code changes (set only
    /// where it is declared) is left out: reading it from two threads is no race.
    static func unguardedUse(in code: String) -> Use? {
        let text = Array(code)
        let closing = closingBraces(in: text)
        for (name, declaration, at, scope, holder) in variables(in: text, closing: closing) {
            let line = String(text[at...].prefix { $0 != "\n" })
            // An object's own `init` and `deinit` run before it is shared or after, and only its
            // methods called through the `let` that shares it (`Self.registry.lock(for:)`) are read.
            let uses = wordOffsets(name, in: text).filter { use in
                use != at && scope.contains(use)
                    && (holder.map { calledThrough($0, use, in: text, closing: closing) } ?? true)
            }
            guard uses.contains(where: { changes(text, at: $0 + name.count) }) else { continue }
            let unguarded = uses.filter { !guarded($0, name: name, in: text, closing: closing, depth: 0) }
            // A change outside the lock is named before a read outside it.
            guard let use = unguarded.first(where: { changes(text, at: $0 + name.count) }) ?? unguarded.first
            else { continue }
            return Use(
                name: name,
                declaration: declaration,
                action: changes(text, at: use + name.count) ? "changed" : "read",
                function: enclosingFunction(use, in: text, closing: closing) ?? "code outside a function",
                isMap: line.contains(/\[[^\]]*:[^\]]*\]|Dictionary\s*</)
            )
        }
        return nil
    }

    /// The shared variables `code` changes somewhere (after their declaration), by name. An object's
    /// `var` only when every use outside its `init` and `deinit` is in a method called through the
    /// `let` that shares it: the only uses `unguardedUse` reads.
    static func changedVariables(in code: String) -> [String] {
        let text = Array(code)
        let closing = closingBraces(in: text)
        return variables(in: text, closing: closing).filter { name, _, at, scope, holder in
            let uses = wordOffsets(name, in: text).filter { $0 != at && scope.contains($0) }
            if let holder,
                !uses.allSatisfy({
                    inInitializer($0, in: text, closing: closing)
                        || calledThrough(holder, $0, in: text, closing: closing)
                })
            {
                return false
            }
            return uses.contains { changes(text, at: $0 + name.count) }
        }.map(\.0)
    }

    /// The names of the shared stored variables `text` declares (`static var`, a `var` outside any
    /// braces, a `var` of a class whose one object a `static let` or a global `let` holds), how each
    /// is declared, where its name is, the part of `text` its uses are read in, and for an object's
    /// `var` the name of the `let` that holds the object.
    static func variables(in text: [Character], closing: [Int: Int]) -> [(String, String, Int, Range<Int>, String?)] {
        let code = String(text)
        var found: [(String, String, Int, Range<Int>, String?)] = []
        for match in code.matches(of: /(static\s+)?var\s+([A-Za-z_][A-Za-z0-9_]*)/) {
            let start = code.distance(from: code.startIndex, to: match.range.lowerBound)
            guard start == 0 || !isIdentifier(text[start - 1]) else { continue }
            let isStatic = match.output.1 != nil
            let name = String(match.output.2)
            let nameAt = code.distance(from: code.startIndex, to: match.output.2.startIndex)
            // A computed variable (`static var x: T { ... }`) stores nothing.
            let rest = String(text[(nameAt + name.count)...].prefix { $0 != "\n" })
            if let brace = rest.firstIndex(of: "{"), rest[..<brace].firstIndex(of: "=") == nil { continue }
            if isStatic || enclosingOpeners(start, closing: closing).isEmpty {
                found.append((name, isStatic ? "a `static var`" : "a global `var`", nameAt, 0..<text.count, nil))
            } else if let (owner, holder, body) = sharedObject(declaring: name, at: start, in: text, closing: closing) {
                let held = holder.isStatic ? "static let \(holder.name)" : "let \(holder.name)"
                found.append((name, "a `var` of the one `\(owner)` in `\(held)`", nameAt, body, holder.name))
            }
        }
        return found
    }

    /// For a `var` declared at `start` directly in a class's braces, when one object of that class is
    /// held by a `static let` or a global `let` (`static let registry = LockRegistry()`), so that every
    /// FileCounter shares it: the class, that `let`, and the class's braces, where its uses are read
    /// (`calledThrough` leaves out its `init` and `deinit`). Nil otherwise, and when `name` is
    /// declared again in the class (a local or a parameter could hide it).
    static func sharedObject(
        declaring name: String,
        at start: Int,
        in text: [Character],
        closing: [Int: Int]
    ) -> (String, (name: String, isStatic: Bool), Range<Int>)? {
        guard let opener = enclosingOpeners(start, closing: closing).first, let end = closing[opener] else {
            return nil
        }
        let header = String(text[max(0, opener - 160)..<opener])
        // A class isolated to a global actor (`@MainActor`) runs one of its methods at a time.
        guard let owner = header.firstMatch(of: /(?:^|\W)class\s+([A-Za-z_][A-Za-z0-9_]*)[^{}]*$/)?.output.1,
            !["var", "let", "func"].contains(owner), header.firstMatch(of: /@[A-Za-z_]*Actor(?!\w)[^{}]*$/) == nil
        else { return nil }
        let body = String(text[(opener + 1)..<end])
        let declarations = body.matches(
            of: /(?:^|\W)(?:var|let)\s+([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)\s*:[^:]/
        )
        guard declarations.filter({ ($0.output.1 ?? $0.output.2).map(String.init) == name }).count == 1 else {
            return nil
        }
        let code = String(text)
        let holders = code.matches(
            of:
                /(?:^|\W)(static\s+)?let\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([A-Za-z_][A-Za-z0-9_]*)\s*)?=\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\.init)?\s*\(/
        ).filter { holder in
            let at = code.distance(from: code.startIndex, to: holder.range.lowerBound)
            return holder.output.4 == owner && (holder.output.3 == nil || holder.output.3 == owner)
                && (holder.output.1 != nil || enclosingOpeners(at, closing: closing).isEmpty)
        }
        guard let holder = holders.first else { return nil }
        return (String(owner), (String(holder.output.2), holder.output.1 != nil), (opener + 1)..<end)
    }

    /// Whether the use at `offset` is in a method (not an `init` or a `deinit`) that the code calls
    /// through `holder` (`registry.lock(for: url)`, `Self.registry.lock(for: url)`).
    static func calledThrough(_ holder: String, _ offset: Int, in text: [Character], closing: [Int: Int]) -> Bool {
        guard !inInitializer(offset, in: text, closing: closing) else { return false }
        for opener in enclosingOpeners(offset, closing: closing) {
            let before = String(text[max(0, opener - 160)..<opener])
            guard let method = before.firstMatch(of: /(?:^|\W)func\s+([A-Za-z_][A-Za-z0-9_]*)[^{}]*$/)?.output.1
            else { continue }
            // A method isolated to a global actor (`@MainActor func`) never runs beside itself.
            if before.firstMatch(of: /@[A-Za-z_]*Actor(?!\w)[^{}]*func\s+[A-Za-z_][A-Za-z0-9_]*[^{}]*$/) != nil {
                return false
            }
            let code = String(text)
            return code.matches(of: /(?:^|\W)([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(/).contains {
                $0.output.1 == holder && $0.output.2 == method
            }
        }
        return false
    }

    /// Whether `offset` is in the body of an `init` or a `deinit`.
    static func inInitializer(_ offset: Int, in text: [Character], closing: [Int: Int]) -> Bool {
        enclosingOpeners(offset, closing: closing).contains { opener in
            let before = String(text[max(0, opener - 160)..<opener])
            return before.contains(/(^|[^.\w])init[?!]?\s*[(<][^{}]*$/) || before.contains(/(?:^|\W)deinit\s*$/)
        }
    }

    /// Whether the use of a variable ending at `end` changes it: an assignment (to it or through a
    /// subscript) or a mutating call of a collection.
    static func changes(_ text: [Character], at end: Int) -> Bool {
        var index = skipSpaces(text, from: end)
        if index < text.count, text[index] == "[" {
            var depth = 0
            while index < text.count {
                if text[index] == "[" { depth += 1 }
                if text[index] == "]" { depth -= 1 }
                index += 1
                if depth == 0 { break }
            }
            index = skipSpaces(text, from: index)
        }
        let rest = String(text[index...].prefix(40))
        return rest.firstMatch(of: /^(=[^=]|[-+*\/]=|\?\?=)/) != nil
            || rest.firstMatch(of: /^\.\s*(updateValue|removeValue|removeAll|merge|insert|append|remove)(?!\w)/) != nil
    }

    /// The calls whose closure runs under a lock or on a queue's block: a lock's, a `Mutex`'s, a
    /// queue's.
    static let lockingCalls: Set<String> = [
        "withLock", "withLockedValue", "withLockUnchecked", "withCriticalRegion", "sync", "async",
        "asyncAndWait", "performAndWait",
    ]

    /// Whether the use at `offset` runs under a lock: inside a closure of a lock's or a queue's
    /// (`withLock { }`, `sync { }`, `sync(execute: { })`) or of a function of the file whose body
    /// takes a lock (`synchronized { }`), or after a `lock()` (or a semaphore's `wait()`) in its
    /// function that no `unlock()` before it ends, on a lock that is not reached through the
    /// variable itself. A function whose body does not lock counts as locked when every call of it is.
    static func guarded(_ offset: Int, name: String, in text: [Character], closing: [Int: Int], depth: Int) -> Bool {
        for opener in enclosingOpeners(offset, closing: closing) {
            let before = String(text[max(0, opener - 160)..<opener])
            // A lock reached through the variable itself (`locks[path]!.withLock { }`) does not guard it.
            let statement = before.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            if let call = calledWithClosure(before), wordOffsets(name, in: Array(statement)).isEmpty,
                lockingCalls.contains(call) || takesLock(call, in: text, closing: closing)
            {
                return true
            }
            let function = before.firstMatch(of: /(?:^|\W)func\s+([A-Za-z_][A-Za-z0-9_]*)[^{}]*$/)
            let body =
                function != nil || before.contains(/(^|[^.\w])init[?!]?\s*[(<][^{}]*$/)
                || before.contains(/(?:^|\W)deinit\s*$/)
                || before.contains(/(?:^|\W)(get|set|willSet|didSet)(\s*\([^()]*\))?\s*$/)
            guard body else { continue }
            if locksHeld(in: text[(opener + 1)..<offset], name: name) { return true }
            // Called only under a lock (a helper of a locked region), up to three calls deep.
            guard let called = function.map({ String($0.output.1) }), depth < 3 else { return false }
            let named = wordOffsets(called, in: text).filter { call in
                let after = skipSpaces(text, from: call + called.count)
                return after < text.count && text[after] == "("
                    && !String(text[max(0, call - 12)..<call]).contains("func")
            }
            // The calls whose first argument fits the function's first parameter: `lock(for: url)`
            // for `lock(for:)`, not a lock's `lock()`; all of them if none fits (a default value).
            let fitting = named.filter { fits($0 + called.count, parameters: before, in: text) }
            let calls = fitting.isEmpty ? named : fitting
            return !calls.isEmpty
                && calls.allSatisfy { guarded($0, name: name, in: text, closing: closing, depth: depth + 1) }
        }
        return false
    }

    /// Whether `body` (a function's text up to a use) takes more locks than it releases: `defer`
    /// blocks release only at the end, and a lock reached through `name` guards nothing of it.
    /// An `unlock()` in a block that ends by leaving (`if … { unlock(); return }`, a `guard`'s
    /// `else`) releases only on that path, which never reaches the use: it is not counted.
    static func locksHeld(in body: ArraySlice<Character>, name: String) -> Bool {
        let code = String(leavingBlocksReleasesRemoved(Array(body))).replacing(/defer\s*\{[^{}]*\}/, with: " ")
        let takes = code.matches(of: /\.\s*(lock|wait)\s*\(\s*\)|(?:^|\W)(pthread_mutex_lock|os_unfair_lock_lock)\s*\(/)
            .filter { take in
                let line =
                    code[..<take.range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
                return wordOffsets(name, in: Array(line)).isEmpty
            }.count
        let releases = code.matches(
            of: /\.\s*(unlock|signal)\s*\(\s*\)|(?:^|\W)(pthread_mutex_unlock|os_unfair_lock_unlock)\s*\(/
        ).count
        return takes > releases
    }

    /// Whether the call whose arguments open after `end` passes a first argument as the function
    /// declared at the end of `declaration` takes it: none, one with no label (`_`), one labelled.
    static func fits(_ end: Int, parameters declaration: String, in text: [Character]) -> Bool {
        guard let list = declaration.firstMatch(of: /func\s+[A-Za-z_][A-Za-z0-9_]*\s*(?:<[^<>{}]*>)?\s*\(([^()]*)/)
        else { return true }
        let first = list.output.1.split(separator: ",").first?.split(separator: ":").first?
            .split(separator: " ").first.map(String.init)
        let open = skipSpaces(text, from: end)
        let arguments = String(text[(open + 1)...].prefix(80)).trimmingCharacters(in: .whitespacesAndNewlines)
        let label = arguments.firstMatch(of: /^([A-Za-z_][A-Za-z0-9_]*)\s*:/)?.output.1
        switch first {
        case nil: return arguments.hasPrefix(")")
        case "_": return !arguments.hasPrefix(")") && label == nil
        case let first?: return label.map(String.init) == first
        }
    }

    /// The name of the call a closure opening right after `before` is passed to: its trailing closure
    /// (`synchronized {`, `queue.sync(flags: .barrier) {`) or an argument (`sync(execute: {`).
    static func calledWithClosure(_ before: String) -> String? {
        let trailing = /(?:^|\W)([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?:[^{}()]|\([^{}()]*\))*\))?\s*$/
        let argument = /(?:^|\W)([A-Za-z_][A-Za-z0-9_]*)\s*\((?:(?:[^{}()]|\([^{}()]*\))*[,:])?\s*$/
        if let match = before.firstMatch(of: argument) { return String(match.output.1) }
        if let match = before.firstMatch(of: trailing) { return String(match.output.1) }
        return nil
    }

    /// Whether the file declares a function `name` whose body takes a lock (`lock()`, a semaphore's
    /// `wait()`) or runs code under one (`withLock { }`, `sync { }`): a helper such as
    /// `synchronized(_ body:)` that calls its closure under the lock.
    static func takesLock(_ name: String, in text: [Character], closing: [Int: Int]) -> Bool {
        let code = String(text)
        let takes = /\.\s*(lock|wait)\s*\(\s*\)|(?:^|\W)(pthread_mutex_lock|os_unfair_lock_lock)\s*\(/
        let runsUnder =
            /(?:^|\W)(withLock|withLockedValue|withLockUnchecked|withCriticalRegion|sync|asyncAndWait|performAndWait)\s*[({]/
        for match in code.matches(of: /(?:^|\W)func\s+([A-Za-z_][A-Za-z0-9_]*)[^{}]*\{/) where match.output.1 == name {
            let opener = code.distance(from: code.startIndex, to: match.range.upperBound) - 1
            guard let end = closing[opener] else { continue }
            let body = String(text[(opener + 1)..<end])
            if body.contains(takes) || body.contains(runsUnder) { return true }
        }
        return false
    }

    /// `body` with the `unlock()` calls (and other releases) of its closed statement blocks that end
    /// by leaving (`return`, `throw`, `continue`, `break`, `fatalError`) blanked: such a block's
    /// release runs only on a path that leaves before what follows the block.
    static func leavingBlocksReleasesRemoved(_ body: [Character]) -> [Character] {
        var result = body
        let closing = closingBraces(in: body)
        for (opener, end) in closing where end < body.count {
            // A statement's block: `if …`, `else`, `guard … else`, `for`, `while`, `do`, `catch`.
            var start = opener
            while start > 0, !"{};".contains(body[start - 1]) { start -= 1 }
            // The statement since the last brace or `;`, whose condition may span lines.
            let header = String(body[start..<opener])
            guard header.firstMatch(of: /(?:^|\n)\s*(if|else|guard|for|while|do|catch)(?!\w)/) != nil else {
                continue
            }
            let inside = String(body[(opener + 1)..<end])
            // Its last statement, on a line of its own or after a `;`.
            let statements = inside.split(whereSeparator: { $0 == "\n" || $0 == ";" })
            let last = statements.map { $0.trimmingCharacters(in: .whitespaces) }.last { !$0.isEmpty } ?? ""
            guard last.firstMatch(of: /^(return|throw|continue|break|fatalError|preconditionFailure)(?!\w)/) != nil
            else { continue }
            let code = String(inside)
            for release in code.matches(
                of: /\.\s*(unlock|signal)\s*\(\s*\)|(?:^|\W)(pthread_mutex_unlock|os_unfair_lock_unlock)\s*\(/
            ) {
                let from = opener + 1 + code.distance(from: code.startIndex, to: release.range.lowerBound)
                let to = opener + 1 + code.distance(from: code.startIndex, to: release.range.upperBound)
                for index in from..<to where !"{}".contains(result[index]) { result[index] = " " }
            }
        }
        return result
    }

    /// The name of the function the offset is in (`increment()`), if any.
    static func enclosingFunction(_ offset: Int, in text: [Character], closing: [Int: Int]) -> String? {
        for opener in enclosingOpeners(offset, closing: closing) {
            let before = String(text[max(0, opener - 160)..<opener])
            if let function = before.firstMatch(
                of: /(?:^|\W)func\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^<>{}]*>)?\s*\(([^()]*)[^{}]*$/
            ) {
                // Its name as Swift writes it: `lock(for:)`, `increment()`.
                let labels = function.output.2.split(separator: ",").compactMap { $0.split(separator: " ").first }
                return "`\(function.output.1)(\(labels.map { "\($0.hasSuffix(":") ? $0.dropLast() : $0):" }.joined()))`"
            }
            if before.contains(/(^|[^.\w])init[?!]?\s*[(<][^{}]*$/) { return "`init`" }
        }
        return nil
    }

    /// For each `{` of `text`, where its `}` is (the end of the text when it has none).
    static func closingBraces(in text: [Character]) -> [Int: Int] {
        var open: [Int] = []
        var closing: [Int: Int] = [:]
        for (index, character) in text.enumerated() {
            if character == "{" { open.append(index) }
            if character == "}", let opener = open.popLast() { closing[opener] = index }
        }
        for opener in open { closing[opener] = text.count }
        return closing
    }

    /// The `{` whose braces enclose `offset`, innermost first.
    static func enclosingOpeners(_ offset: Int, closing: [Int: Int]) -> [Int] {
        closing.filter { $0.key < offset && offset < $0.value }.keys.sorted(by: >)
    }

    /// Where `word` occurs in `text` as a whole identifier.
    static func wordOffsets(_ word: String, in text: [Character]) -> [Int] {
        let pattern = Array(word)
        guard !pattern.isEmpty, text.count >= pattern.count else { return [] }
        return (0...(text.count - pattern.count)).filter { start in
            text[start..<(start + pattern.count)].elementsEqual(pattern)
                && (start == 0 || !isIdentifier(text[start - 1]))
                && (start + pattern.count == text.count || !isIdentifier(text[start + pattern.count]))
        }
    }

    static func isIdentifier(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    static func skipSpaces(_ text: [Character], from index: Int) -> Int {
        var index = index
        while index < text.count, text[index].isWhitespace { index += 1 }
        return index
    }
}

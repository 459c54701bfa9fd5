// Part of exercise 4's harness (do not edit).
// Read from the participant's code: state that every FileCounter shares (a `static var`, a global
// `var`), such as a map from each file to its lock, and whether it is used outside any lock. Two
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
        for (name, declaration, at) in variables(in: text, closing: closing) {
            let line = String(text[at...].prefix { $0 != "\n" })
            let uses = wordOffsets(name, in: text).filter { $0 != at }
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

    /// The shared variables `code` changes somewhere (after their declaration), by name.
    static func changedVariables(in code: String) -> [String] {
        let text = Array(code)
        return variables(in: text, closing: closingBraces(in: text)).filter { name, _, at in
            wordOffsets(name, in: text).contains { $0 != at && changes(text, at: $0 + name.count) }
        }.map(\.0)
    }

    /// The names of the shared stored variables `text` declares (`static var`, a `var` outside any
    /// braces), how each is declared, and where its name is.
    static func variables(in text: [Character], closing: [Int: Int]) -> [(String, String, Int)] {
        let code = String(text)
        var found: [(String, String, Int)] = []
        for match in code.matches(of: /(static\s+)?var\s+([A-Za-z_][A-Za-z0-9_]*)/) {
            let start = code.distance(from: code.startIndex, to: match.range.lowerBound)
            guard start == 0 || !isIdentifier(text[start - 1]) else { continue }
            let isStatic = match.output.1 != nil
            guard isStatic || enclosingOpeners(start, closing: closing).isEmpty else { continue }
            let nameAt = code.distance(from: code.startIndex, to: match.output.2.startIndex)
            // A computed variable (`static var x: T { ... }`) stores nothing.
            let rest = String(text[(nameAt + match.output.2.count)...].prefix { $0 != "\n" })
            if let brace = rest.firstIndex(of: "{"), rest[..<brace].firstIndex(of: "=") == nil { continue }
            found.append((String(match.output.2), isStatic ? "a `static var`" : "a global `var`", nameAt))
        }
        return found
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

    /// Whether the use at `offset` runs under a lock: inside a closure of a lock's or a queue's
    /// (`withLock { }`, `sync { }`), or after a `lock()` (or a semaphore's `wait()`) in its function
    /// that no `unlock()` before it ends, on a lock that is not reached through the variable itself.
    /// A function whose body does not lock counts as locked when every call of it is.
    static func guarded(_ offset: Int, name: String, in text: [Character], closing: [Int: Int], depth: Int) -> Bool {
        for opener in enclosingOpeners(offset, closing: closing) {
            let before = String(text[max(0, opener - 160)..<opener])
            let locking =
                /(?:^|\W)(withLock|withLockedValue|withLockUnchecked|withCriticalRegion|sync|async|asyncAndWait|performAndWait)\s*(\([^{}()]*(\([^{}()]*\)[^{}()]*)*\))?\s*$/
            // A lock reached through the variable itself (`locks[path]!.withLock { }`) does not guard it.
            let statement = before.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            if before.firstMatch(of: locking) != nil, wordOffsets(name, in: Array(statement)).isEmpty { return true }
            let function = before.firstMatch(of: /(?:^|\W)func\s+([A-Za-z_][A-Za-z0-9_]*)[^{}]*$/)
            let body =
                function != nil || before.contains(/(^|[^.\w])init[?!]?\s*[(<][^{}]*$/)
                || before.contains(/(?:^|\W)deinit\s*$/)
                || before.contains(/(?:^|\W)(get|set|willSet|didSet)(\s*\([^()]*\))?\s*$/)
            guard body else { continue }
            if locksHeld(in: text[(opener + 1)..<offset], name: name) { return true }
            // Called only under a lock (a helper of a locked region), up to three calls deep.
            guard let called = function.map({ String($0.output.1) }), depth < 3 else { return false }
            let calls = wordOffsets(called, in: text).filter { call in
                let after = skipSpaces(text, from: call + called.count)
                return after < text.count && text[after] == "("
                    && !String(text[max(0, call - 12)..<call]).contains("func")
            }
            return !calls.isEmpty
                && calls.allSatisfy { guarded($0, name: name, in: text, closing: closing, depth: depth + 1) }
        }
        return false
    }

    /// Whether `body` (a function's text up to a use) takes more locks than it releases: `defer`
    /// blocks release only at the end, and a lock reached through `name` guards nothing of it.
    static func locksHeld(in body: ArraySlice<Character>, name: String) -> Bool {
        let code = String(body).replacing(/defer\s*\{[^{}]*\}/, with: " ")
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

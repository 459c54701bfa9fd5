// The harness for exercise 3 (do not edit): compiled next to the participant's Scoreboard.swift.
import ExerciseSupport
import Foundation
import RaceLab
import Synchronization

/// The referee every add must consult: a real suspension point, and a count of how often it was
/// asked, so that an `add` that skips it cannot pass.
enum Referee {
    private static let approvals = Atomic<Int>(0)

    /// Approves `points` after suspending, the way a call to another actor or a server would: one
    /// to four times, at random, as a server answers some calls sooner than others. With a single
    /// suspension every add of a trial would read before any wrote, and a re-check that holds only
    /// in that order (the player count unchanged, say) would pass; with several, adds resume in
    /// many orders, some reading after others wrote.
    static func approve(_ points: Int) async -> Int {
        approvals.wrappingAdd(1, ordering: .relaxed)
        for _ in 0...Int.random(in: 0...3) { await Task.yield() }
        return points
    }

    static var count: Int { approvals.load(ordering: .acquiring) }
}

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("3 · Scoreboard keeps every point across its awaits")

// A blocking call `add` makes before its last `await` (itself or in a method it calls): if the
// check hangs, the checker names it as the cause, with the hint written for it. Announced, not
// printed: a run that does not hang says nothing about it.
if let blocking = BlockingAcrossAwait.found(in: participantCode("Scoreboard.swift")) {
    check.announceReading(
        "blocking-across-await",
        "read from your code: `add` blocks its thread in \(blocking) before its `await`: the next "
            + "add blocks the actor's thread there, so the add holding it never resumes to release it "
            + "(`blocking-across-await`)"
    )
}

// Functional: adds count, per player, and each add is approved exactly once.
let board = Scoreboard()
let before = Referee.count
// The adds run before the `require`s that judge them: named first, for the checker's message if
// one never returns.
check.checking("adds are counted per player")
await board.add(3, to: "ada")
await board.add(4, to: "ada")
await board.add(5, to: "grace")
let ada = await board.score(of: "ada")
let grace = await board.score(of: "grace")
let total = await board.total
check.require(
    ada == 7 && grace == 5,
    "adds are counted per player",
    evidence: "ada \(ada) (expected 7), grace \(grace) (expected 5)"
)
check.require(total == 12, "total is the sum of all scores", evidence: "total \(total) (expected 12)")
check.require(
    Referee.count - before == 3,
    "each add asks the referee exactly once",
    evidence: "3 adds asked the referee \(Referee.count - before) times"
)

// Concurrent: every iteration adds one point for one of four players; nothing may be lost.
// The points the adds were asked to add, all trials together: what the lost points are out of.
let pointsAsked = Atomic<Int>(0)
let variant = Variant(
    name: "exercise",
    kind: .fixed,
    summary: "the participant's Scoreboard",
    makeState: { Scoreboard() },
    asyncOperation: { board, iteration in
        // Adds start at different times too (zero to three suspensions first): some read a score
        // after others have written, as well as before.
        for _ in 0..<Int.random(in: 0...3) { await Task.yield() }
        pointsAsked.wrappingAdd(1, ordering: .relaxed)
        await board.add(1, to: "player-\(iteration.index % 4)")
    },
    check: { board, trial in .kept(await board.total, of: trial.iterations, unit: "points") }
)
let asked = Referee.count
// A score read after the referee, then another `await` before it is written back: announced now, so
// that a crash of the run is explained by it too; said under the FAIL of lost points, or as a FAIL
// of its own after a run that lost none.
let staleLine = StaleAcrossAwait.found(in: participantCode("Scoreboard.swift")).map { stale in
    "read from your code: add reads `\(stale.name)` from the scores, then awaits (`\(stale.await)`), "
        + "then writes it back: other adds run on the actor at that `await`, and the write undoes "
        + "theirs, whatever this run showed (`stale-across-await`)"
}
if let staleLine { check.announceReading("stale-across-await", staleLine) }
check.stress(
    variant,
    workload: Workload(trials: 40, iterations: 200),
    requirement: "200 concurrent adds of one point keep all 200 (every trial)",
    lost: "points",
    lostOutOf: { _ in (pointsAsked.load(ordering: .acquiring), "points lost in all trials together") },
    // The starter marks no window, so noise adds no pause; the referee's `await` is where the adds
    // interleave. Said without the harness's words (lesson 3 teaches no `Race.window`).
    unmarked: { _ in "no pause added: the adds interleave at the referee's `await`" }
)
// What the code did, for the hint, under the FAIL it explains (so before the next requirement):
// an add that compares after its `await` and on some path writes nothing drops its points instead
// of overwriting others'; one that writes on every path but writes back a value read before the
// `await` loses them to that stale value; one statement that reads the score, then awaits, is the
// starter's race in one line. The run sees the same lost points; the code tells them apart.
let recheck = check.saw("lost-writes") ? RecheckAfterAwait.found(in: participantCode("Scoreboard.swift")) : nil
if recheck == .drop {
    check.diagnose(
        "recheck-drop",
        "read from your code: after its `await` an add compares the score and, on some path, writes "
            + "nothing, so an add that finds it changed drops its points (`recheck-drop`)"
    )
} else if case .stale(let name, true, _)? = recheck {
    check.diagnose(
        "recheck-stale",
        "read from your code: after its `await` an add compares the score, then still writes a value "
            + "read before the `await` (`\(name)`): that value is stale (`recheck-stale`)"
    )
} else if case .stale(let name, false, let condition)? = recheck {
    // A re-check of something other than the score (the total, the player count, whether the key
    // exists): hint 3 is written for it, before hint 5's fix.
    check.diagnose(
        "recheck-other",
        "read from your code: after its `await` an add checks something other than the score it read "
            + "(`\(condition)`), then still writes a value read before the `await` (`\(name)`): that "
            + "check says nothing about whether `\(name)` is current (`recheck-other`)"
    )
} else if check.saw("lost-writes"), let staleLine {
    check.diagnose("stale-across-await", staleLine)
} else if check.saw("lost-writes"), AwaitInExpression.found(in: participantCode("Scoreboard.swift")) {
    check.diagnose(
        "await-in-expression",
        "read from your code: one statement reads the score and, later in it, awaits the referee; "
            + "Swift reads the score before the `await`, so it is stale by the write (`await-in-expression`)"
    )
}
check.require(
    Referee.count - asked == 40 * 200,
    "every concurrent add asked the referee once",
    evidence: "\((40 * 200).formatted()) adds asked \((Referee.count - asked).formatted()) times"
)
// An add that starts over when the score changed asks the referee again: the count above says so,
// the loop around the `await` says why.
if check.saw("concurrent"), RetryAroundAwait.found(in: participantCode("Scoreboard.swift")) {
    check.diagnose(
        "retry-asks-again",
        "read from your code: an add that finds the score changed starts over and asks the referee "
            + "again; the rules allow one question per add (`retry-asks-again`)"
    )
}
// A score read, then an `await` (any, not only the referee's), then that value written back with no
// re-check between: the actor runs other adds at that `await`, and the write undoes theirs. The
// run pauses only at the referee, so it can miss a later `await`; the code shows it every time.
if !check.hasFailed, let staleLine {
    check.require(false, "an add writes no score it read before an `await`", kind: "stale-across-await")
    check.diagnose("stale-across-await", staleLine)
}
check.finish()

/// What an add does after it re-checks the actor's state behind its `await`: an `if` or `guard`
/// after the first `await` of `add` whose condition reads `scores` (`scores[player]`,
/// `scores.count`), a property or method of the actor that reads it (`total`), or a value read from
/// either before the `await`. A condition on anything else (the approved points, say) is not a
/// re-check.
enum Recheck: Equatable {
    /// Some path from the comparison writes no score: an `if` with no `else` and no write after it,
    /// a branch without a write that returns, a `guard … else { return }`. That add's points are
    /// dropped.
    case drop
    /// Every path writes, and a write puts back `name`, a value read before the `await`
    /// (`current + approved`): the points of the adds that ran meanwhile are overwritten.
    /// `comparesScore`: the condition compares a score (`scores[player, default: 0] == current`),
    /// not only whether the player has one (`scores[player] != nil`) or another state (`total`);
    /// `condition`: the condition as written.
    case stale(String, comparesScore: Bool, condition: String)
}

/// Reads `add` for a re-check after its `await` (``Recheck``); nil when there is none, or when
/// every path writes and no write uses a value read before the `await`. A plain reading of the
/// text, braces matched and `//` comments left out, for the few shapes a participant writes.
enum RecheckAfterAwait {
    static func found(in code: String) -> Recheck? {
        guard let add = code.range(of: "func add") else { return nil }
        let rest = code[add.upperBound...]
        let body = rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        guard let suspension = body.range(of: "await") else { return nil }
        // The actor's state as a condition can read it: `scores`, and the properties and methods
        // (other than `add`) whose bodies read it, such as `total`.
        let state = ["scores"] + StateReaders.names(in: code)
        // Names bound to a read of the score before the suspension: `let current = scores[…]`.
        // Those whose value is a test of the score (`scores[player] != nil`), not a score, too.
        // `stateBefore`: every name bound to a read of the state (`let totalBefore = total`).
        var testsBefore: [String] = []
        var stateBefore: [String] = []
        let readBefore = body[..<suspension.lowerBound].split(separator: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let binding = parts.first?.split(separator: " ") ?? []
            guard parts.count == 2, binding.count == 2, ["let", "var"].contains(binding[0]) else { return nil }
            if Self.words(parts[1]).contains(where: state.contains) { stateBefore.append(String(binding[1])) }
            guard parts[1].hasPrefix("scores[") || parts[1].hasPrefix("self.scores[") else { return nil }
            if ["nil", "==", "!=", "<", ">"].contains(where: parts[1].contains) {
                testsBefore.append(String(binding[1]))
            }
            return String(binding[1])
        }
        let lines = body[suspension.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
        let after = Array(lines.joined(separator: "\n"))
        var outcomes: [Recheck] = []
        var lineStart = 0
        for line in lines {
            defer { lineStart += line.count + 1 }
            let statement = line.trimmingCharacters(in: .whitespaces)
            guard statement.hasPrefix("if ") || statement.hasPrefix("guard ") else { continue }
            let condition = String(statement.prefix { $0 != "{" })
            let words = Self.words(condition)
            guard (state + stateBefore + readBefore).contains(where: words.contains) else { continue }
            let keyword = lineStart + line.prefix { $0 == " " || $0 == "\t" }.count
            guard var outcome = outcome(of: after, at: keyword, readBefore: readBefore) else { continue }
            // A score is compared when the condition reads one again (`scores[`) with `==` or
            // `!=`, other than against `nil`, or names a value read from one before the `await`
            // that is a score, not a test of one (`let existed = scores[player] != nil`).
            if case .stale(let name, _, _) = outcome {
                let scoreValues = readBefore.filter { !testsBefore.contains($0) }
                let compares =
                    (condition.contains("scores[") && !condition.contains("nil")
                        && (condition.contains("==") || condition.contains("!=")))
                    || words.contains(where: scoreValues.contains)
                var written = condition.trimmingCharacters(in: .whitespaces)
                for keyword in ["if ", "guard "] where written.hasPrefix(keyword) { written.removeFirst(keyword.count) }
                if written.hasSuffix(" else") { written.removeLast(" else".count) }
                outcome = .stale(name, comparesScore: compares, condition: written)
            }
            outcomes.append(outcome)
        }
        return outcomes.contains(.drop) ? .drop : outcomes.first
    }

    /// The `if` (with its `else if`s and `else`) or `guard` at `start`: whether a path skips the
    /// write, else the first value read before the `await` that a write puts back.
    private static func outcome(of text: [Character], at start: Int, readBefore: [String]) -> Recheck? {
        let isGuard = text[start...].starts(with: "guard")
        guard let open = text[start...].firstIndex(of: "{"), let close = BraceMatching.closing(text, of: open)
        else { return nil }
        // Each path through the statement, as the code it runs (an `if` without `else`: none).
        var paths = [text[(open + 1)..<close]]
        var end = close + 1
        if !isGuard {
            var hasElse = false
            while true {
                let next = text[end...].firstIndex { !$0.isWhitespace } ?? text.endIndex
                guard text[next...].starts(with: "else"), let open = text[next...].firstIndex(of: "{"),
                    let close = BraceMatching.closing(text, of: open)
                else { break }
                paths.append(text[(open + 1)..<close])
                end = close + 1
                if text[(next + 4)..<open].allSatisfy(\.isWhitespace) {
                    hasElse = true
                    break
                }
            }
            if !hasElse { paths.append([]) }
        }
        let later = text[end...]
        let writesLater = !writes(in: later, outermostOnly: true).isEmpty
        // A `guard`'s block always leaves `add`; the path that passes it runs only what follows.
        let skips =
            paths.contains { path in
                writes(in: path, outermostOnly: false).isEmpty
                    && (isGuard || !writesLater || words(String(path)).contains { ["return", "throw"].contains($0) })
            } || (isGuard && !writesLater)
        if skips { return .drop }
        // A value the condition found equal to the score is current where that holds: in an `if`'s
        // first block for `==`, in its `else` for `!=`, after a `guard` for `==`.
        let condition = String(text[start..<open])
        let equal = condition.contains("==") && !condition.contains("!=")
        let unequal = condition.contains("!=") && !condition.contains("==")
        let checked = words(condition).filter(readBefore.contains)
        var written: [(value: String, current: [String])] = []
        for (number, path) in paths.enumerated() {
            let holds = isGuard ? false : number == 0 ? equal : number == paths.count - 1 && unequal
            written += writes(in: path, outermostOnly: false).map { ($0, holds ? checked : []) }
        }
        written += writes(in: later, outermostOnly: false).map { ($0, isGuard && equal ? checked : []) }
        for (value, current) in written {
            if let name = words(value).first(where: { readBefore.contains($0) && !current.contains($0) }) {
                return .stale(name, comparesScore: true, condition: condition)
            }
        }
        return nil
    }

    /// The right-hand sides of the writes to `scores[…]` (`=`, `+=`, …) in `text`, to the end of
    /// their line; with `outermostOnly`, only those outside any braces (run on every path).
    private static func writes(in text: ArraySlice<Character>, outermostOnly: Bool) -> [String] {
        var values: [String] = []
        var depth = 0
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}": depth -= 1
            default: break
            }
            guard text[index...].starts(with: "scores["), depth == 0 || !outermostOnly,
                let bracket = text[index...].firstIndex(of: "]")
            else {
                index += 1
                continue
            }
            var operation = text[(bracket + 1)...].firstIndex { !$0.isWhitespace } ?? text.endIndex
            if operation < text.endIndex, "+-*".contains(text[operation]) { operation += 1 }
            if operation + 1 < text.endIndex, text[operation] == "=", text[operation + 1] != "=" {
                let lineEnd = text[operation...].firstIndex(of: "\n") ?? text.endIndex
                values.append(String(text[(operation + 1)..<lineEnd]))
            }
            index = bracket + 1
        }
        return values
    }

    /// The identifiers in `text`.
    static func words(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }
}

/// The properties and methods of the actor, other than `add`, whose bodies read `scores`:
/// `var total: Int { scores.values.reduce(0, +) }`, `func count() -> Int { scores.count }`. A
/// condition that names one reads the actor's state.
enum StateReaders {
    static func names(in code: String) -> [String] {
        let text = Array(code)
        var names: [String] = []
        for match in code.matches(of: /(?:var|func)\s+(\w+)[^{=\n]*\{/) where match.output.1 != "add" {
            let open = code.distance(from: code.startIndex, to: match.range.upperBound) - 1
            guard let close = BraceMatching.closing(text, of: open) else { continue }
            if String(text[(open + 1)..<close]).contains("scores") { names.append(String(match.output.1)) }
        }
        return names
    }
}

/// A call that blocks its thread, `add` makes before its last `await`: a `wait()` (a semaphore, a
/// group), a lock's `lock()` (`NSLock`, `os_unfair_lock_lock`, `pthread_mutex_lock`), in `add`
/// itself or in a method of the file that `add` calls (`enter()`, which locks). The text that
/// says which (`` `semaphore.wait()` ``, `` `enter()` (which calls `lock.lock()`) ``); nil when there
/// is none.
enum BlockingAcrossAwait {
    static func found(in code: String) -> String? {
        guard let add = code.range(of: "func add") else { return nil }
        let rest = code[add.upperBound...]
        let body = String(rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest)
        guard let lastAwait = body.ranges(of: "await").last else { return nil }
        let before = body[..<lastAwait.lowerBound]
        if let call = blockingCall(in: before) { return "`\(call)`" }
        // A method `add` calls before the `await`, whose body blocks.
        let text = Array(code)
        for match in before.matches(of: /(\w+)\(/) {
            let name = String(match.output.1)
            guard name != "add",
                let regex = try? Regex("func\\s+\(name)\\s*\\([^{]*\\{"),
                let declaration = code.firstMatch(of: regex)
            else { continue }
            let open = code.distance(from: code.startIndex, to: declaration.range.upperBound) - 1
            guard let close = BraceMatching.closing(text, of: open),
                let call = blockingCall(in: String(text[(open + 1)..<close]))
            else { continue }
            return "`\(name)()` (which calls `\(call)`)"
        }
        return nil
    }

    /// The first blocking call in `text`, as written up to its `(` and closed: `semaphore.wait()`.
    private static func blockingCall(in text: some StringProtocol) -> String? {
        String(text).firstMatch(of: /([\w.]*(?:\.wait|\.lock|_lock))\(/).map { "\($0.output.1)()" }
    }
}

/// One statement of `add` that reads the score, awaits, and writes the score, as in
/// `scores[player] = scores[player, default: 0] + (await Referee.approve(points))` or
/// `scores[player] = await scores[player, default: 0] + Referee.approve(points)`: an assignment to
/// `scores[` whose right-hand side reads `scores[` and holds an `await` anywhere. Swift evaluates
/// left to right, so the read happens before the suspension, as in the starter's three lines.
/// A value read from the actor's state in `add` after the referee's `await`, then another `await`,
/// then a write of the state that uses the value and reads no state afresh, with no `if` or `guard`
/// between the `await` and the write (a re-check has readings of its own) and no new value given
/// to the name after it. An `add` with a loop or a `defer` (a flag that keeps other adds waiting, a
/// retry) is never read so. Only lines of `add` read one by one: a read, an await and a write on
/// one line are `AwaitInExpression`'s.
enum StaleAcrossAwait {
    static func found(in code: String) -> (name: String, await: String)? {
        guard let add = code.range(of: "func add") else { return nil }
        let rest = code[add.upperBound...]
        let body = rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        let state = ["scores"] + StateReaders.names(in: code)
        let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !RecheckAfterAwait.words(String(body)).contains(where: ["while", "repeat", "for", "defer"].contains),
            let referee = lines.firstIndex(where: { $0.contains("await") && $0.contains("Referee.") })
        else { return nil }
        for (index, line) in lines.enumerated()
        where index > referee && (line.hasPrefix("let ") || line.hasPrefix("var ")) {
            // `let updated = scores[player, default: 0] + approved`, with no `await` in it.
            guard let binding = line.firstMatch(of: /^(?:let|var)\s+(\w+)\s*(?::[^=]+)?=\s*(.+)$/),
                !binding.2.contains("await"),
                RecheckAfterAwait.words(String(binding.2)).contains(where: state.contains)
            else { continue }
            let name = String(binding.1)
            // A new value given to the name (`updated = …`, `updated += …`) ends what this reads.
            let reassigned = /^(\w+)\s*[-+*\/]?=[^=]/
            var suspension: String?
            for later in lines[(index + 1)...] {
                if suspension == nil {
                    if later.contains("await ") {
                        suspension = later.firstMatch(of: /await\s+[\w.]+(\([^()]*\))?/).map { String($0.0) } ?? "await"
                    }
                    continue
                }
                if later.hasPrefix("if ") || later.hasPrefix("guard ") || later.hasPrefix("while ")
                    || later.firstMatch(of: reassigned).map({ $0.1 == name }) == true
                {
                    break
                }
                let writesState = later.firstMatch(of: /^(self\.)?scores\[[^\]]*\]\s*=[^=]/) != nil
                let value = later.split(separator: "=", maxSplits: 1).dropFirst().first.map(String.init) ?? ""
                if writesState, !later.contains("await"), RecheckAfterAwait.words(value).contains(name),
                    !RecheckAfterAwait.words(value).contains(where: state.contains)
                {
                    return (name, suspension ?? "await")
                }
            }
        }
        return nil
    }
}

enum AwaitInExpression {
    static func found(in code: String) -> Bool {
        guard let add = code.range(of: "func add") else { return false }
        let rest = code[add.upperBound...]
        let body = rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        return body.split(separator: "\n").contains { line in
            var compact = String(line.filter { !$0.isWhitespace })
            if compact.hasPrefix("self.") { compact.removeFirst(5) }
            guard compact.hasPrefix("scores["), compact.contains("await"),
                let assignment = compact.range(of: "]=")
            else { return false }
            return compact[assignment.upperBound...].contains("scores[")
        }
    }
}

/// An add that retries: a loop (`while`, `repeat`, `for`) in `add` with an `await` inside it.
enum RetryAroundAwait {
    static func found(in code: String) -> Bool {
        guard let add = code.range(of: "func add") else { return false }
        let rest = code[add.upperBound...]
        let body = rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        let loop = ["while ", "repeat ", "repeat{", "for "].compactMap { body.range(of: $0) }.min {
            $0.lowerBound < $1.lowerBound
        }
        guard let loop, let suspension = body.range(of: "await", range: loop.upperBound..<body.endIndex) else {
            return false
        }
        return suspension.lowerBound > loop.lowerBound
    }
}

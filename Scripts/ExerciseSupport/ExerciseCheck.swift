import Foundation
import RaceLab

/// The verdict machinery every exercise's harness shares: functional checks (the operation still does
/// its job), then a stress run through RaceLab's runner with noise on, then one PASS or FAIL line.
///
/// It is compiled as a module of its own (`ExerciseSupport`) beside the participant's file, so that
/// names the participant declares (a top-level `exit` or `print`) cannot replace the ones it calls,
/// and it hands its verdict to the checker script through `VerdictChannel`, not through the exit
/// status. Make it with the first statement of the check's `main.swift`, as a `private` constant
/// the participant's file cannot name: the first `ExerciseCheck` of a process owns the channel.
///
/// The functional checks come first and are what keeps an exercise from passing by deleting the
/// work: a store that stores nothing never loses a write, a "run once" that never runs never runs
/// twice. Only a file that does the work *and* survives the stress run passes.
public final class ExerciseCheck {
    private let title: String
    private var failures: [String] = []
    /// What would make each untested requirement testable, for the summary line.
    private var remedies: [String] = []
    /// What kinds of failure were seen (`functional`, `lost-writes`, `duplicates`…): they choose
    /// the checker's hint, never the verdict.
    private var kinds: [String] = []
    /// Whether this check owns the verdict channel (it was the first made).
    private let ownsChannel: Bool

    public init(_ title: String) {
        ownsChannel = VerdictChannel.claim()
        self.title = title
        say("Exercise: \(title)")
    }

    /// One functional requirement, checked single-threaded or after all threads finished.
    /// `kind` names the failure for the checker's hint (`functional` unless said otherwise).
    /// `condition` is evaluated after the requirement is announced (`checking(_:)`): a call in it
    /// that hangs is reported as this requirement's.
    public func require(
        _ condition: @autoclosure () -> Bool,
        _ requirement: String,
        kind: String = "functional",
        evidence: @autoclosure () -> String = ""
    ) {
        checking(requirement)
        let held = condition()
        if ownsChannel { VerdictChannel.checking(nil) }
        if held {
            say("  ok    \(requirement)")
        } else {
            let detail = evidence()
            say("  FAIL  \(requirement)" + (detail.isEmpty ? "" : ": \(detail)"))
            failures.append(requirement)
            // A requirement checked after the stress run held single-threaded and broke only once
            // calls overlapped: its advice is not the single-threaded one's.
            if !stressing { kinds.append(stressed && kind == "functional" ? "concurrent" : kind) }
        }
    }

    /// A requirement the run could not test, because the code gave it nothing to check (no mark
    /// to pause at): its line says UNTESTED, neither ok nor FAIL, and the run does not pass. The
    /// summary names `remedy`, what makes it testable; `untested` goes to the checker's hint.
    public func untested(_ requirement: String, evidence: String, remedy: String) {
        say("  UNTESTED  \(requirement): \(evidence)")
        remedies.append(remedy)
        if !stressing { kinds.append("untested") }
    }

    /// Announces the requirement the statements from here on do the work for, up to the `require`
    /// that judges it: the checker names it if the check runs long (a progress line after a few
    /// seconds) or runs out of time. `require` and `stress` announce their own requirement; call this
    /// before calls whose result a later `require` checks (`once.run { … }`, then `require(…)`).
    public func checking(_ requirement: String) {
        if ownsChannel { VerdictChannel.checking(requirement) }
    }

    /// Whether a requirement has failed so far.
    public var hasFailed: Bool { !failures.isEmpty }

    /// Whether the failures so far include `kind` (`lost-writes`…): a diagnosis read from the code
    /// is only for the failure it explains.
    public func saw(_ kind: String) -> Bool { kinds.contains(kind) }

    /// What a failed run showed, for the hint: one line under the FAIL, and `kind` added to the
    /// diagnosis (a hint marked with it in hints.md is the one the checker names). Call it right
    /// after the FAIL it explains (or through `stress(…diagnosis:)`), before any other requirement.
    public func diagnose(_ kind: String, _ line: String) {
        say("        \(line)")
        kinds.append(kind)
    }

    /// A diagnosis read from the code, announced before the run from many threads without being
    /// printed: if that run crashes, the checker script adds `kind` to the crash's diagnosis and
    /// prints `line` under it (nothing for an empty `line`: one `diagnose` printed already), so that
    /// the crash's hint follows the code as a FAIL's would. A run that ends still calls `diagnose`
    /// for the failure it explains.
    public func announceReading(_ kind: String, _ line: String = "") {
        if ownsChannel { VerdictChannel.reading(kind: kind, line: line) }
    }

    /// A line that is neither ok nor FAIL: what was not checked, and why.
    public func note(_ line: String) {
        say("  --    \(line)")
    }

    /// Marks the start of concurrent work the harness runs itself (not through `stress`), such as
    /// writers under a controlled schedule: a hang from here on is reported as one in the
    /// concurrent run, not in the single-threaded checks.
    public func enterConcurrentStage() {
        if ownsChannel { VerdictChannel.enter(stage: "concurrent") }
    }

    /// Whether `stress` is running: a failure then is the stress run's, not a functional check's.
    private var stressing = false
    /// Whether `stress` has run: a functional requirement that fails after it is `concurrent`.
    private var stressed = false

    /// The participant's type as the variant `stress` runs: named `exercise`, and `fixed`, since the
    /// participant's file claims to be thread-safe and the stress run checks that claim. (An actor's
    /// async operation needs `Variant(name:kind:summary:makeState:asyncOperation:check:)` itself.)
    ///
    /// - Parameters:
    ///   - type: the participant's type, as the report names it (`Storage`).
    ///   - makeState, operation, check, tearDown: as for `Variant`.
    public static func variant<State: Sendable>(
        of type: String,
        makeState: @escaping @Sendable () throws -> State,
        operation: @escaping @Sendable (State, Iteration) throws -> Void,
        check: @escaping @Sendable (State, TrialInfo) async throws -> Observation,
        tearDown: @escaping @Sendable (State) -> Void = { _ in }
    ) -> Variant {
        Variant(
            name: "exercise",
            kind: .fixed,
            summary: "the participant's \(type)",
            makeState: makeState,
            operation: operation,
            check: check,
            tearDown: tearDown
        )
    }

    /// A requirement the stress run checks beside its main one, broken by every operation that
    /// recorded an inconsistency: it gets a line of its own, so that a FAIL names what broke.
    public struct EachOperation {
        /// The requirement, as its `ok`/`FAIL` line names it.
        public var requirement: String
        /// What an operation that broke it did, counted (`calls returned before the work had run`).
        public var broken: String
        /// The name its FAIL line gives what it counts, for the checker's hint (`early-returns`):
        /// `inconsistencies`, the runner's count, unless the exercise names it for what it counts.
        public var kind: String
        /// A line printed under its FAIL line when the main requirement held, if any.
        public var aside: String?
        /// Whether its FAIL line shows sample inconsistencies (`e.g. …`): false when every sample
        /// only repeats `broken` for one call, which the count on the FAIL line already says.
        public var showsSamples: Bool
        /// What the broken operations are out of, given the trials run, when not every operation
        /// could break it (`13,500`, `calls that did not run the work`): the FAIL line
        /// then counts against it, with `broken` after the phrase, instead of all operations.
        public var outOf: (@Sendable (_ trials: Int) -> (total: Int, phrase: String))?

        public init(
            _ requirement: String,
            broken: String,
            kind: String = "inconsistencies",
            aside: String? = nil,
            showsSamples: Bool = true,
            outOf: (@Sendable (_ trials: Int) -> (total: Int, phrase: String))? = nil
        ) {
            self.requirement = requirement
            self.broken = broken
            self.kind = kind
            self.aside = aside
            self.showsSamples = showsSamples
            self.outOf = outOf
        }
    }

    /// Runs `variant` (the participant's type, which claims to be thread-safe) through the runner
    /// with seeded noise at its race windows, and records a failure with the evidence if any trial
    /// lost a write, duplicated work or broke an invariant, or had an error (a thrown operation, a
    /// failure the check counted in `Observation.errors`). A trial with an error is not checked, so
    /// it never passes: the FAIL line gives the first error, and the kind is `errors` alone (the
    /// error is fixed first; `diagnosis` is not asked).
    /// - Parameters:
    ///   - lost: the plural noun the exercise counts its lost writes in (`points`), so that the
    ///     FAIL line uses the starter's word.
    ///   - lostOutOf: what the lost writes are out of, given the trials run, when a bare count would
    ///     not say it (`documents not whole at the end` of `1,600`): the line then says
    ///     `408 of 1,600 documents not whole at the end`.
    ///   - lostKind: the name the lost writes get for the checker's hint, when the exercise counts
    ///     something else than lost writes in them (`torn-at-end`: documents torn at the end).
    ///   - eachOperation: the requirement inconsistencies break, when it is not `requirement`.
    ///   - inconsistentRow: the outcome and meaning the runner's `inconsistent reads` row (trials
    ///     whose operations saw inconsistencies while the check's own outcome was correct) is printed
    ///     with, when the check names its other rows in words of its own: every row then says both
    ///     what the operations saw and what the check found, and each trial is in one row.
    ///   - inconsistent: the phrase of the check's `Observation.tallies` entry that counts the
    ///     inconsistencies out of the operations that could have been one (`reads torn`), if any: the
    ///     lines then say `12 of 14,400 reads torn`, not a count beside the run's operations, which
    ///     it can exceed (one operation can read several times).
    ///   - diagnosis: what the failed run showed, for the hint (`diagnose(_:_:)`), asked for once
    ///     the run has failed: its line goes under the FAIL it explains, the main requirement's if
    ///     that broke, else `eachOperation`'s, never under an `ok` line.
    ///   - unseen: for a main requirement that held while `eachOperation` broke, the diagnosis kinds
    ///     read from the code that still allow it to break, and what its breaking would be
    ///     (`duplicate execution`): its line then says what the run measured and that the code
    ///     allows it (`--`), not `ok`, which would read as "the race is gone".
    ///   - unmarked: what the run did when the operations reached no `Race.window` (no pause was
    ///     added, so what interleaved them is the run's own concurrency), for the first line that
    ///     counts the run, after its trials and operations, given how many threads ran them; nil, or
    ///     no closure, for the default: that the code no longer reaches the mark and the calls still
    ///     ran at once on those threads. Later lines only say that no pause was added.
    public func stress(
        _ variant: Variant,
        workload: Workload,
        requirement: String,
        lost: String = "writes",
        lostOutOf: (@Sendable (_ trials: Int) -> (total: Int, phrase: String))? = nil,
        lostKind: String = "lost-writes",
        eachOperation: EachOperation? = nil,
        inconsistentRow: (outcome: String, meaning: String)? = nil,
        inconsistent: String? = nil,
        diagnosis: (() -> (kind: String, line: String)?)? = nil,
        unseen: (kinds: Set<String>, what: String)? = nil,
        unmarked: (@Sendable (_ threads: Int) -> String?)? = nil
    ) {
        // A diagnosis already asked for (`unseen`), for the FAIL line it goes under.
        var pending: (kind: String, line: String)?
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        if ownsChannel { VerdictChannel.enter(stage: "concurrent") }
        checking(requirement)
        stressing = true
        defer {
            stressing = false
            stressed = true
        }
        // Each trial's start and end on the verdict channel: the script stops a run in which no
        // trial finished for far longer than one takes (see "Time limits" in Scripts/check-exercise).
        let owns = ownsChannel
        let report = StressRunner.run(
            variant,
            options: .init(workload: workload, seed: seed, noise: true),
            entering: { phase in if owns && phase == .variant { VerdictChannel.trial(started: true) } },
            afterTrial: { _ in if owns { VerdictChannel.trial(started: false) } }
        )
        let operations = report.operations.formatted()
        // Noise pauses threads only at marked windows. A run that reached none still ran the
        // operations at once (on as many threads as the runner starts: one per core, at most one per
        // iteration), only without the pauses that widen a window: it says so, or what interleaved
        // the operations instead, if the exercise names it.
        let threads = min(report.iterations, ProcessInfo.processInfo.activeProcessorCount)
        let noise =
            report.windowsReached != 0
            ? "noise on"
            : unmarked?(threads)
                ?? "noise on; your code no longer reaches the marked window, so no pause was added: "
                + (threads > 1 ? "the calls still ran at once on \(threads) threads" : "the calls ran on one thread")
        // The run's size on every line that counts it; why no pause was added, on the first only.
        var noiseSaid = false
        func ran() -> String {
            defer { noiseSaid = true }
            let said = noiseSaid && report.windowsReached == 0 ? "noise on but no pause added, as above" : noise
            return "\(trials(report.trials)) × \(report.iterations.formatted()) operations, \(said)"
        }
        let samples = distinct(report.samples)
        let outOf = inconsistent.flatMap { phrase in report.tallies?.first { $0.phrase == phrase } }
        // With `eachOperation`, inconsistencies (and the trials that saw nothing else) are its
        // line's: each FAIL line then names what broke.
        let inconsistencies = eachOperation == nil ? report.inconsistencies : 0
        let rows = report.histogram.filter {
            $0.expectation == .forbidden
                && (eachOperation == nil || $0.outcome != "inconsistent reads")
        }.map { row in
            var row = row
            if row.outcome == "inconsistent reads", let (outcome, meaning) = inconsistentRow {
                (row.outcome, row.meaning) = (outcome, meaning)
            }
            return row
        }
        let anomalous =
            eachOperation == nil ? report.anomalousTrials : rows.reduce(0) { $0 + $1.samples }
        // The first error of a run whose trials had any, on one line.
        let firstError: String? =
            report.errorTrials == 0 && report.errors == 0
            ? nil
            : samples.first { $0.hasPrefix("error: ") }.map { oneLine($0.dropFirst("error: ".count)) } ?? "not kept"
        if anomalous > 0 {
            var evidence: [String] = [
                "anomalies in \(anomalous.formatted()) of \(trials(report.trials)) "
                    + "(\(operations) operations, seed \(seed))"
            ]
            // Each kind seen: its name for the checker's hint (printed too), its count, what it counts.
            let lostText: String
            if let lostOutOf {
                let (total, phrase) = lostOutOf(report.trials)
                lostText = "\(report.lostWrites.formatted()) of \(total.formatted()) \(phrase)"
            } else {
                lostText = "\(report.lostWrites.formatted()) \(lost) lost"
            }
            let found: [(String, Int, String)] = [
                (lostKind, report.lostWrites, lostText),
                (
                    "duplicates", report.duplicates,
                    "\(report.duplicates.formatted()) duplicate execution\(report.duplicates == 1 ? "" : "s")"
                ),
                (
                    "inconsistencies", inconsistencies,
                    outOf.flatMap { $0.count == inconsistencies ? $0.text : nil }
                        ?? "\(inconsistencies.formatted()) inconsistencies"
                ),
                ("errors", report.errors, "\(report.errors.formatted()) errors"),
            ].filter { $0.1 > 0 }
            // The name in backticks is the one hints.md's *For* lines use.
            evidence += found.map { "\($0.2) (`\($0.0)`)" }
            if let firstError { evidence.append("first error: \(firstError)") }
            // An operation that failed is fixed first: the hint follows the error, not the race.
            kinds += firstError == nil ? found.map(\.0) : ["errors"]
            require(false, requirement, evidence: evidence.joined(separator: "; "))
            // The trials without anomalies too, as the lesson runner's ACCEPTABLE rows, so that the
            // rows add up to the trials run (not with `eachOperation`, whose inconsistent trials are
            // counted on its own line, in neither).
            let acceptable = eachOperation == nil ? report.histogram.filter { $0.expectation == .acceptable } : []
            for line in outcomeLines(rows) + acceptable.map(acceptableLine) {
                say("        " + line)
            }
            let shown = samples.filter { eachOperation == nil || !$0.hasPrefix("inconsistency: ") }
            for sample in shown.prefix(3) {
                say("        e.g. \(sample)")
            }
            if firstError == nil, let (kind, line) = diagnosis?() { diagnose(kind, line) }
        } else if let firstError {
            // Trials with errors count as neither evidence nor a pass: nothing says they were clean.
            require(
                false,
                requirement,
                evidence: "\(report.errorTrials.formatted()) of \(trials(report.trials)) had errors and were not "
                    + "checked: \(report.errors.formatted()) errors in \(operations) operations (seed \(seed)) "
                    + "(`errors`); first error: \(firstError)"
            )
            kinds.append("errors")
        } else if eachOperation != nil, report.inconsistencies > 0, let unseen,
            let diagnosed = diagnosis?(), unseen.kinds.contains(diagnosed.kind)
        {
            // Asked before `eachOperation`'s FAIL, which its line still goes under: the run saw no
            // such failure, the code still allows one.
            pending = diagnosed
            note(
                "\(requirement): no \(unseen.what) seen in \(ran()); the code still allows one "
                    + "(read from it below)"
            )
        } else {
            require(true, "\(requirement) (\(ran()))" + (outOf.map { ": \($0.text)" } ?? ""))
        }
        guard let eachOperation else { return }
        guard report.inconsistencies > 0 else {
            require(true, "\(eachOperation.requirement) (\(ran()))")
            return
        }
        // Its kind in backticks, as the main requirement's line names its kinds: the name hints.md's
        // *For* lines use.
        require(
            false,
            eachOperation.requirement,
            evidence: "\(report.inconsistencies.formatted()) of "
                + (eachOperation.outOf.map { $0(report.trials) }.map { "\($0.total.formatted()) \($0.phrase) " }
                    ?? "\(operations) ")
                + "\(eachOperation.broken) (`\(eachOperation.kind)`; \(ran()), seed \(seed))"
        )
        kinds.append(eachOperation.kind)
        for sample in samples.filter({ $0.hasPrefix("inconsistency: ") }).prefix(eachOperation.showsSamples ? 3 : 0) {
            say("        e.g. \(sample.dropFirst("inconsistency: ".count))")
        }
        if anomalous == 0, let aside = eachOperation.aside { say("        " + aside) }
        if anomalous == 0, let (kind, line) = pending ?? diagnosis?() { diagnose(kind, line) }
    }

    /// Prints the verdict, hands it to the checker script (when this check owns the channel) and
    /// exits: 0 for PASS, 1 for FAIL or UNTESTED (for a harness run by hand; the script reads the
    /// channel, where an untested requirement is a failure of kind `untested`).
    public func finish() -> Never {
        let passed = failures.isEmpty && remedies.isEmpty && ownsChannel
        if passed, ProcessInfo.processInfo.environment["EXERCISE_THREAD_SANITIZER_FOLLOWS", default: ""] != "" {
            // The checker script reads this code as racy and runs ThreadSanitizer next: a clean run
            // is not the verdict yet, and the room must not read PASS before a FAIL.
            say("No failure in this run: \(title); not the verdict yet, ThreadSanitizer runs next")
        } else if passed {
            say("PASS: \(title)")
        } else if failures.isEmpty && remedies.isEmpty {
            say("FAIL: this check does not own the verdict channel (another ExerciseCheck was made first)")
        }
        if !failures.isEmpty {
            say("FAIL: \(failures.count) requirement\(failures.count == 1 ? "" : "s") not met")
        }
        // Not a PASS (it tested nothing), nor a FAIL (nothing it tested broke).
        // The same word as the requirement's line (`untested(_:evidence:remedy:)`).
        if !remedies.isEmpty { say("UNTESTED: " + remedies.joined(separator: "; ")) }
        if ownsChannel { VerdictChannel.send(passed: passed, kinds: passed ? [] : kinds) }
        exit(passed ? 0 : 1)
    }
}

/// The forbidden outcomes, one line each in outcome order (the runner's): all of them when there
/// are at most `limit`, else the `limit - 1` seen in most trials, still in outcome order, and one
/// line counting the rest, so that the outcome most trials ended with is never the one left out.
func outcomeLines(_ rows: [HistogramRow], limit: Int = 6) -> [String] {
    let line = { (row: HistogramRow) in "\(trials(row.samples)): \(said(row))" }
    guard rows.count > limit else { return rows.map(line) }
    let kept = Set(
        rows.indices.sorted { rows[$0].samples != rows[$1].samples ? rows[$0].samples > rows[$1].samples : $0 < $1 }
            .prefix(limit - 1)
    )
    let rest = rows.indices.filter { !kept.contains($0) }
    let restTrials = rest.reduce(0) { $0 + rows[$1].samples }
    return rows.indices.filter(kept.contains).map { line(rows[$0]) }
        + ["and \(rest.count.formatted()) other outcomes in \(trials(restTrials))"]
}

/// An outcome a correct program can end with, named so: `1 trial acceptable: all points kept`.
func acceptableLine(_ row: HistogramRow) -> String {
    "\(trials(row.samples)) acceptable: \(said(row))"
}

/// A row's outcome, said once: its meaning, which says in words what the short outcome says in
/// figures (`0–19 of 200 points kept, the others lost` for `0–19/200`), so that printing both
/// would say it twice. The short outcome only for a row with no meaning.
private func said(_ row: HistogramRow) -> String {
    row.meaning.isEmpty ? row.outcome : row.meaning
}

/// `samples` without repeats, in their order: three identical `e.g.` lines tell no more than one.
private func distinct(_ samples: [String]) -> [String] {
    var seen = Set<String>()
    return samples.filter { seen.insert($0).inserted }
}

/// `text` on one line of at most `limit` characters: its lines joined, the rest cut off with `…`.
func oneLine(_ text: some StringProtocol, limit: Int = 160) -> String {
    let joined = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return joined.count <= limit ? joined : String(joined.prefix(limit - 1)) + "…"
}

/// `1 trial`, `2 trials`.
private func trials(_ count: Int) -> String {
    "\(count.formatted()) trial\(count == 1 ? "" : "s")"
}

/// Prints `line` and flushes it at once: when the checker kills a check that hangs, what it printed
/// so far (which requirement it was checking) is on the screen, not lost in a buffer. A line wider
/// than 100 columns (a projected terminal) wraps at spaces, its continuation indented under the text
/// after `ok`/`FAIL`.
private func say(_ line: String) {
    var rest = Substring(line)
    var indent = ""
    while indent.count + rest.count > 100,
        let space = rest.prefix(101 - indent.count).lastIndex(of: " "), space > rest.startIndex
    {
        print(indent + rest[..<space])
        rest = rest[rest.index(after: space)...]
        indent = "        "
    }
    print(indent + rest)
    fflush(nil)
}

import Foundation
import RaceLab
import Testing

/// What `Scripts/check-exercise` tells a participant after a FAIL: the outcomes a stress run saw,
/// the figures in the FAIL line, and the `Next:` line, which follows the failure that happened.
/// Each test checks a starter or a planted wrong fix of the repository through the real checker
/// (which builds the exercise's harness in release mode in `.build-exercise/`, shared by every
/// check: the suite runs one check at a time).
@Suite(
    "a failed exercise check advises what its failure calls for",
    .serialized,
    .disabled(
        if: ThreadSanitizer.isActive,
        "runs Scripts/check-exercise, whose harness is a release build without TSan: make test runs the same checks"
    )
)
struct ExerciseAdviceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What to check: the file at a path, or the starter with a patch applied (paths from the root).
    enum Planted: Sendable {
        case file(String)
        case patch(String)

        /// The patch at `path` when its name ends in `.patch`, else the file at `path`.
        init(_ path: String) {
            self = path.hasSuffix(".patch") ? .patch(path) : .file(path)
        }

        /// The planted file's path from the root.
        var path: String {
            switch self {
            case .file(let path), .patch(let path): path
            }
        }
    }

    /// Runs `Scripts/check-exercise exercise --file|--patch <path>` with `expectations` (its
    /// `--expect …` options); its exit status and merged output.
    static func runCheck(
        exercise: Int,
        _ planted: Planted,
        _ expectations: [String]
    ) async throws -> (status: Int32, text: String) {
        let (option, path) =
            switch planted {
            case .file(let path): ("--file", path)
            case .patch(let path): ("--patch", path)
            }
        return try await Executable.capture(
            root.appendingPathComponent("Scripts/check-exercise"),
            [String(exercise), option, path] + expectations,
            in: root,
            stderr: .merged
        )
    }

    /// Runs `Scripts/check-exercise exercise --file|--patch <path> --expect fail --expect-diagnosis
    /// kind`, expecting exit status 0 (the expected FAIL and diagnosis); its output lines.
    static func check(
        exercise: Int,
        _ planted: Planted,
        diagnosis kind: String
    ) async throws -> [String] {
        let (status, text) = try await runCheck(
            exercise: exercise,
            planted,
            ["--expect", "fail", "--expect-diagnosis", kind]
        )
        let lines = text.split(separator: "\n").map(String.init)
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        return lines
    }

    /// Runs `Scripts/check-exercise exercise --file|--patch <path> --expect pass`, expecting exit
    /// status 0 (the check passed); its output.
    static func checkPasses(
        exercise: Int,
        _ planted: Planted,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let (status, text) = try await runCheck(exercise: exercise, planted, ["--expect", "pass"])
        #expect(status == 0, "\(text)", sourceLocation: sourceLocation)
        return text
    }

    /// The output's lines as one text, each trimmed, joined by spaces: wrapped lines read as the
    /// sentences they are (a line's inner runs of spaces stay, as after `ok` and `FAIL`).
    static func joined(_ lines: [String]) -> String {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// The requirement line a diagnosis line starting with `words` sits under: the nearest `ok` or
    /// `FAIL` line above it (nil when there is no such diagnosis line).
    static func requirement(above words: String, in lines: [String]) -> String? {
        // The words open a detail line, or follow what the run showed on it (`seen in the run: …; read …`).
        let detail = { (line: String) in line.hasPrefix("        ") && line.contains(words) }
        guard let index = lines.firstIndex(where: detail) else { return nil }
        return lines[..<index].last { $0.hasPrefix("  ok    ") || $0.hasPrefix("  FAIL  ") }
    }

    /// Expects the `Next:` line of `lines` to send the participant to hint `hint` of `count` in the
    /// hints file at `hints` (a path from the root).
    static func expectNext(
        _ lines: [String],
        hint: Int,
        of count: Int,
        in hints: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(
            next?.hasPrefix("Next: read hint \(hint) of \(count) in \(hints)") == true,
            "\(lines)",
            sourceLocation: sourceLocation
        )
    }

    @Test(
        "a retry that asks the referee again fails after the concurrent run, and Next names the hint for it",
        .timeLimit(.minutes(20))
    )
    func retryUntilUnchanged() async throws {
        let lines = try await Self.check(
            exercise: 3,
            .patch("Lessons/03-actor-reentrancy/Exercise/WrongFixes/RetryUntilUnchanged.patch"),
            diagnosis: "retry-asks-again"
        )
        let failure = lines.first { $0.contains("FAIL  every concurrent add asked the referee once") }
        #expect(failure?.contains("8,000 adds asked") == true, "\(lines)")
        // Read from the code, under that FAIL: the loop that asks again, and the hint written for it.
        #expect(
            Self.requirement(above: "read from your code: an add that finds the score changed starts over", in: lines)
                == failure,
            "\(lines)"
        )
        Self.expectNext(lines, hint: 3, of: 5, in: "Lessons/03-actor-reentrancy/Exercise/hints.md")
        #expect(!lines.contains { $0.contains("functional checks run") })
    }

    /// A file that does not compile shows each error with its code excerpt down to the caret under
    /// the error's line, not the context lines after it (or a projector shows the error on them);
    /// a lock the compiler refuses in an async function ends with the hint written for it.
    @Test(
        "exercise3: a lock across the await does not compile; each excerpt ends at its error, Next names hint 3",
        .timeLimit(.minutes(20))
    )
    func exercise3LockAcrossAwaitDoesNotCompile() async throws {
        let lines = try await Self.check(
            exercise: 3,
            .patch("Lessons/03-actor-reentrancy/Exercise/WrongFixes/LockAcrossAwait.patch"),
            diagnosis: "unavailable-in-async"
        )
        #expect(lines.contains { $0.hasSuffix("does not compile. The compiler says:") }, "\(lines)")
        let isSource = { (line: String) in line.contains(#/^ *[0-9]+ \| /#) }
        let carets = lines.indices.filter { lines[$0].contains(#/^ +\| +`- error$/#) }
        // One caret per error, right under the line it is on, and no excerpt line after it.
        #expect(carets.count == 2, "\(lines)")
        for (caret, call) in zip(carets, ["lock.lock()", "defer { lock.unlock() }"]) {
            #expect(isSource(lines[caret - 1]) && lines[caret - 1].hasSuffix(call), "\(lines)")
            #expect(caret + 1 < lines.count && !isSource(lines[caret + 1]), "\(lines)")
        }
        #expect(!lines.contains { isSource($0) && $0.contains("let current") }, "\(lines)")
        #expect(lines.contains { $0.contains("is not allowed in an") }, "\(lines)")
        Self.expectNext(lines, hint: 3, of: 5, in: "Lessons/03-actor-reentrancy/Exercise/hints.md")
        #expect(lines.firstIndex { $0.hasPrefix("Next:") }.map { $0 > carets.last ?? lines.count } == true)
    }

    /// A planted file and the hint its failure must send the participant to; for exercise 2, also
    /// the requirements its check must fail and hold.
    struct HintCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var planted: Planted
        var diagnosis: String
        var hint: Int
        var failing: [String] = []
        var holding: [String] = []
    }

    @Test(
        "exercise 5's failures are sent to the hint their diagnosis calls for",
        .timeLimit(.minutes(20)),
        arguments: [
            HintCase(
                testDescription: "an atomic write without the barrier: the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/AtomicWriteNoBarrier.patch"),
                diagnosis: "unordered-stores",
                hint: 2
            ),
            HintCase(
                testDescription: "the barrier flag on a global queue: read from the code, the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/GlobalQueueBarrier.patch"),
                diagnosis: "global-barrier",
                hint: 2
            ),
            HintCase(
                testDescription: "a barrier on a queue made per store: read from the code, the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/QueuePerStore.patch"),
                diagnosis: "new-queue",
                hint: 2
            ),
            HintCase(
                testDescription: "a hop to a global queue before the barrier: read from the code, the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/HopThenBarrier.patch"),
                diagnosis: "queued-late",
                hint: 2
            ),
            HintCase(
                testDescription: "a Task before the barrier: read from the code, the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/TaskThenBarrier.patch"),
                diagnosis: "queued-late",
                hint: 2
            ),
            HintCase(
                testDescription: "remove, then move into place: a window with no file, the rename's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/RemoveThenMove.patch"),
                diagnosis: "missing-file",
                hint: 3
            ),
            HintCase(
                testDescription: "the starter, torn: the first hint",
                planted: .file("Lessons/05-persistent-store/Exercise/Starter/DocumentStore.swift"),
                diagnosis: "inconsistencies",
                hint: 1
            ),
        ]
    )
    func hintFollowsTheDiagnosis(_ planted: HintCase) async throws {
        let lines = try await Self.check(exercise: 5, planted.planted, diagnosis: planted.diagnosis)
        // Each count says what it counts, out of what: torn reads out of the reads made (one reader
        // reads several times), documents that went back out of the documents stored.
        let text = Self.joined(lines)
        let torn = try #require(
            text.firstMatch(of: #/ ([\d,]+) of ([\d,]+) reads torn \(loads and direct reads of the files\)/#),
            "\(lines)"
        )
        #expect((torn.1 != "0") == (planted.diagnosis == "inconsistencies"), "\(lines)")
        let wentBack = text.contains(#/ [1-9][\d,]* of 1,600 documents went back to an older version /#)
        if ["unordered-stores", "global-barrier", "new-queue"].contains(planted.diagnosis) {
            #expect(wentBack, "\(lines)")
        }
        // A store that completed late is told by what went wrong, its order first, then what it left
        // on disk: never as "held v1 when the store of v1 completed", which a correct store does too.
        #expect(!text.contains(" held v"), "\(lines)")
        let late = #/went back: own-\d+ \(one writer's own document\): the store of v\d+ completed [^(]*/#
        let told =
            #/completed (after the store of v\d+( and left v\d+ on disk|, with v\d+ on disk)|with the older v\d+ on disk)/#
        for example in text.matches(of: late) {
            #expect(example.output.contains(told), "\(example.output)")
        }
        // A hop to a global queue fails from the code whether or not this run saw a store overtaken.
        let unguaranteed = "none of 1,600 documents went back in this run, but their order is not guaranteed"
        #expect(text.contains(unguaranteed) == (planted.diagnosis == "queued-late" && !wentBack), "\(lines)")
        if planted.diagnosis == "queued-late" {
            #expect(text.contains("FAIL  stores of one document land in the order they were made"), "\(lines)")
        }
        // Why, read from the code, only where the code says so.
        let globalBarrier = "read from your code: a barrier on a global queue is ignored: stores run beside stores"
        #expect(text.contains(globalBarrier) == (planted.diagnosis == "global-barrier"), "\(lines)")
        let newQueue = "read from your code: each store makes a new queue"
        #expect(text.contains(newQueue) == (planted.diagnosis == "new-queue"), "\(lines)")
        // Where it hops to, as the code says: a global queue, or a task.
        let hop = planted.planted.path.contains("Task") ? "a `Task`" : "a block on `DispatchQueue.global()`"
        let queuedLate = "read from your code: `store` queues its barrier from \(hop)"
        #expect(text.contains(queuedLate) == (planted.diagnosis == "queued-late"), "\(lines)")
        // A document stored before a read began is never missing to it: counted out of such reads.
        let missing = #/ [1-9][\d,]* of [\d,]+ opens from outside the store found no file for a stored document /#
        #expect(text.contains(missing) == (planted.diagnosis == "missing-file"), "\(lines)")
        #expect(!text.contains(" inconsistencies") && !text.contains("the run checked"), "\(lines)")
        // A document counted as lost is one whose file is torn at the end: said so, out of all.
        #expect(!text.contains("documents lost") && !text.contains("not whole"), "\(lines)")
        if text.contains("documents torn") {
            // Named for what it counts (`torn-at-end`, beside `torn-load`), not `lost-writes`,
            // which exercise 5's hints do not use.
            #expect(text.contains(#/ [\d,]+ of 1,600 documents torn at the end \(`torn-at-end`\)/#), "\(lines)")
        }
        #expect(!text.contains("`lost-writes`"), "\(lines)")
        // Each outcome row says once, in one vocabulary (torn, whole), what the reads saw and what
        // the files held at the end: never kept/lost, and not again in short form.
        let rows = lines.filter { $0.firstMatch(of: #/^ {8}[\d,]+ trials?: /#) != nil }
        #expect(rows.isEmpty == (planted.diagnosis != "inconsistencies"), "\(lines)")
        let said = try Regex(
            #"^ {8}[\d,]+ trials?: (reads saw torn files|no read torn); "#
                + #"(every document whole|\d+(–\d+)? of 100 documents torn) at the end$"#
        )
        for row in rows {
            #expect(row.firstMatch(of: said) != nil, "\(row)")
            #expect(!row.contains("·") && !row.contains("("), "\(row)")
        }
        #expect(!text.contains(" kept") && !text.contains("the others lost") && !text.contains("inconsistent reads"))
        // The diagnosis line ends with the name hints.md lists its hint under, as exercise 4's does.
        let kind = planted.diagnosis == "inconsistencies" ? "torn-load" : planted.diagnosis
        #expect(text.contains("(`\(kind)`)"), "\(lines)")
        Self.expectNext(lines, hint: planted.hint, of: 4, in: "Lessons/05-persistent-store/Exercise/hints.md")
        // The hint named is written for what the run printed: one set on its *For* line names every
        // name the run printed in backticks; or the run printed more than any set names (the
        // starter), and hint 1's *And for* line names them all.
        let printed = Set(text.matches(of: #/\(`([a-z-]+)`\)/#).map { String($0.1) })
        #expect(!printed.isEmpty, "\(lines)")
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/05-persistent-store/Exercise/hints.md"),
            encoding: .utf8
        )
        let section = hints.components(separatedBy: "\n## Hint ")[planted.hint]
        let forLine = try #require(section.firstRange(of: "*For:*").map { section[$0.lowerBound...] })
            .components(separatedBy: "\n\n")[0]
        let sets = forLine.matches(of: #/`([a-z -]+)`/#).map { Set($0.1.split(separator: " ").map(String.init)) }
        if !sets.contains(where: { $0.isSuperset(of: printed) }) {
            #expect(planted.hint == 1, "\(printed)")
            let andFor = try #require(section.firstRange(of: "*And for*").map { section[$0.lowerBound...] })
                .components(separatedBy: "\n\n")[0]
            for name in printed { #expect(andFor.contains("`\(name)`"), "\(name)") }
        }
    }

    @Test(
        "exercise 6's writer-only lock: torn snapshots out of those taken, and the hint on one value",
        .timeLimit(.minutes(20))
    )
    func tornSnapshotsOutOfTaken() async throws {
        let lines = try await Self.check(
            exercise: 6,
            .patch("Lessons/06-async-data-source/Exercise/WrongFixes/LockedWriterOnly.patch"),
            diagnosis: "reader-two-looks"
        )
        // 100 trials × 500 reading iterations, plus each trial's final snapshot: the phrase says so.
        let text = Self.joined(lines)
        #expect(
            text.contains(
                #/ [1-9][\d,]* of 50,100 snapshots torn \(readers' and one after each trial; title and items from different versions\)/#
            ),
            "\(lines)"
        )
        // Each trial is in one row, which says once both what its readers saw and what the snapshot
        // after it held: the rows add up to the trials with anomalies.
        let anomalous = try #require(text.firstMatch(of: #/anomalies in ([\d,]+) of 100 trials/#), "\(lines)")
        let rows = text.matches(
            of: #/([\d,]+) trials?: (readers saw torn snapshots|no reader saw a torn snapshot); after the trial, /#
        )
        #expect(!text.contains(" · torn after the trial") && !text.contains(" · whole after the trial"), "\(lines)")
        let number = { (text: Substring) in Int(text.replacing(",", with: "")) ?? -1 }
        #expect(rows.reduce(0) { $0 + number($1.1) } == number(anomalous.1), "\(lines)")
        #expect(!text.contains("inconsistent reads"), "\(lines)")
        #expect(!text.contains(" inconsistencies;") && !text.hasSuffix(" inconsistencies"), "\(lines)")
        // The writer is whole, the reader takes two looks: read from the code, sent to hint 4.
        #expect(text.contains("snapshot() still reads the title and the items in two looks"), "\(lines)")
        Self.expectNext(lines, hint: 4, of: 7, in: "Lessons/06-async-data-source/Exercise/hints.md")
    }

    @Test("exercise 5's hints are marked: unordered stores to the barrier, torn files seen only outside to the rename")
    func barrierHintIsMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/05-persistent-store/Exercise/hints.md"),
            encoding: .utf8
        )
        #expect(!hints.contains("<!--"), "nothing an editor shows as markup")
        #expect(hints.contains("## Hint 1: two kinds of reader\n*For:* `inconsistencies torn-load`\n\n*And for* "))
        #expect(
            hints.contains(
                "## Hint 2: the barrier\n*For:* `inconsistencies torn-load`, `unordered-stores torn-at-end`,\n"
                    + "`unordered-stores global-barrier`, `unordered-stores new-queue`, "
                    + "`unordered-stores queued-late`\n"
            )
        )
        #expect(
            hints.contains(
                "## Hint 3: write elsewhere, then rename\n"
                    + "*For:* `inconsistencies torn-load`, `inconsistencies torn-outside`, `torn-at-end`,\n"
                    + "`errors staging-name`, `missing-file`\n"
            )
        )
    }

    static let exercise2 = "Lessons/02-check-then-act/Exercise"
    static let exactlyOnce = "ten concurrent calls run the work exactly once"
    static let waits = "every call returns only after the work has run"

    static let onceCases = [
        HintCase(
            testDescription: "the starter: duplicates with the flag set after the work, hint 1",
            planted: .file("\(exercise2)/Starter/Once.swift"),
            diagnosis: "flag-after-work",
            hint: 1,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription: "the flag set first: duplicates and early returns, the hint on the flag first",
            planted: .patch("\(exercise2)/WrongFixes/FlagFirst.patch"),
            diagnosis: "flag-before-work",
            hint: 3,
            failing: [exactlyOnce, waits]
        ),
        HintCase(
            testDescription: "a lock around the check only: the hint on that lock",
            planted: .patch("\(exercise2)/WrongFixes/LockAroundCheck.patch"),
            diagnosis: "lock-around-check",
            hint: 4,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription: "a lock around the set only: the check outside any lock, the hint on such locks",
            planted: .patch("\(exercise2)/WrongFixes/LockAroundSet.patch"),
            diagnosis: "check-outside-lock",
            hint: 4,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription: "a lock around the work only: executions one after another, that lock's hint",
            planted: .patch("\(exercise2)/WrongFixes/LockAroundAct.patch"),
            diagnosis: "lock-around-act",
            hint: 5,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription: "sync on a concurrent queue: the hint on read locks",
            planted: .patch("\(exercise2)/WrongFixes/ReadLockForWrite.patch"),
            diagnosis: "read-lock",
            hint: 6,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription:
                "the lesson's ReadWriteLock, its read around the check and the set: the hint on read locks",
            planted: .patch("\(exercise2)/WrongFixes/ReadWriteLockReadForWrite.patch"),
            diagnosis: "read-lock",
            hint: 6,
            failing: [exactlyOnce],
            holding: [waits]
        ),
        HintCase(
            testDescription: "a compare-exchange: early returns only, the hint on waiting",
            planted: .patch("\(exercise2)/WrongFixes/AtomicReturnsEarly.patch"),
            diagnosis: "early-returns",
            hint: 8,
            failing: [waits],
            holding: [exactlyOnce]
        ),
    ]

    @Test(
        "exercise 2's FAIL lines name the requirement that broke, and Next the hint it calls for",
        .timeLimit(.minutes(20)),
        arguments: onceCases
    )
    func onceRequirements(_ planted: HintCase) async throws {
        let lines = try await Self.check(exercise: 2, planted.planted, diagnosis: planted.diagnosis)
        for requirement in planted.failing {
            #expect(lines.contains { $0.hasPrefix("  FAIL  \(requirement)") }, "\(lines)")
        }
        for requirement in planted.holding {
            #expect(lines.contains { $0.hasPrefix("  ok    \(requirement)") }, "\(lines)")
        }
        // The wrapped lines as sentences. Every count is grouped (`1,487 of 1,500`, not `1487`).
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        let grouped = #/[0-9]{1,3}(,[0-9]{3})*/#
        for match in text.matches(of: /anomalies in ([0-9,]+) of 1,500 trials/) {
            #expect(match.1.wholeMatch(of: grouped) != nil, "\(text)")
        }
        // Counted against the calls that did not run the work (15,000 less the executions): only
        // those can return before it has run.
        let early = text.firstMatch(
            of: /: ([0-9,]+) of ([0-9,]+) calls that did not run the work returned before it had run/
        )
        #expect((early != nil) == planted.failing.contains(Self.waits), "\(text)")
        if let early {
            #expect(early.1.wholeMatch(of: grouped) != nil && early.2.wholeMatch(of: grouped) != nil, "\(text)")
            let (count, total) = (Int(early.1.filter(\.isNumber)) ?? 0, Int(early.2.filter(\.isNumber)) ?? 0)
            #expect(count <= total && total < 15_000, "\(text)")
        }
        // Its kind, named for what it counts as the hints' *For* lines name it (hint 3:
        // `early-returns flag-before-work`), not the runner's generic `inconsistencies`.
        #expect(text.contains("returned before it had run (`early-returns`; ") == (early != nil), "\(text)")
        #expect(!text.contains("`inconsistencies`"), "\(text)")
        // What was seen, not the runner's jargon; each sample once; why the lesson's variant is
        // CLEAN only where it looks like a contradiction (the work ran once, calls returned early).
        #expect(!text.contains("inconsistent reads"))
        let samples = lines.filter { $0.hasPrefix("        e.g. ") }
        #expect(Set(samples).count == samples.count, "\(lines)")
        // The early-return count is not repeated by a sample under it.
        #expect(!samples.contains { $0.contains("returned before the work had run") }, "\(lines)")
        #expect(
            // The command it names runs from the repository root.
            text.contains("The lesson's `atomic` and `serial-queue` variants return early too: `make lesson-2`,")
                == (planted.failing == [Self.waits]),
            "\(text)"
        )
        Self.expectNext(lines, hint: planted.hint, of: 10, in: "\(Self.exercise2)/hints.md")
        // What the run saw, ending with the name the hint lists; only when the work ran twice.
        let seen = text.firstMatch(
            of: /seen in the run: [0-9,]+ (of the [0-9,]+ )?(extra )?executions? began .*?\(`([a-z-]+)`\)/
        )
        #expect((seen?.3).map(String.init) == (planted.failing.contains(Self.exactlyOnce) ? planted.diagnosis : nil))
        // Work run twice by code that takes a lock: the run shows the check and the set were not one
        // critical section, whatever the lock; the code says only where its lock misses them.
        let splitByLock = ["lock-around-check", "check-outside-lock"].contains(planted.diagnosis)
        #expect(
            text.contains(": the check and the set are not one critical section; read from your code:")
                == splitByLock,
            "\(text)"
        )
        if planted.diagnosis == "check-outside-lock" {
            #expect(text.contains("`run` checks the flag before it takes any lock"), "\(text)")
            #expect(!text.contains("lock-around-check"), "\(text)")
        }
        // What the run saw sits under the FAIL it explains, never under an `ok` line.
        if let above = Self.requirement(above: "seen in the run", in: lines) {
            #expect(above.hasPrefix("  FAIL  "), "\(lines)")
        }
        // The extra executions it sorts are the FAIL line's duplicates, all of them.
        if let duplicates = text.firstMatch(of: /; ([0-9,]+) duplicate executions?/) {
            let extra = text.firstMatch(of: /seen in the run: (?:[0-9,]+ of the )?([0-9,]+) extra executions? began/)
            #expect(extra?.1 == duplicates.1, "\(text)")
        }
        // Calls that returned early with the work run once: that, seen in the run, in one line.
        let waitedFor = /seen in the run: no second execution began; the calls that lost .* returned without waiting/
        #expect((text.firstMatch(of: waitedFor) != nil) == (planted.failing == [Self.waits]), "\(text)")
    }

    @Test("exercise 2's hints list what they are for in text, and each mistake has a hint of its own")
    func exercise2HintsAreMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("\(Self.exercise2)/hints.md"),
            encoding: .utf8
        )
        // Nothing an editor shows as markup.
        #expect(!hints.contains("<!--"))
        for (heading, kinds) in [
            ("## Hint 1: check, then act", "`duplicates flag-after-work`"),
            (
                "## Hint 3: the flag set first",
                "`duplicates early-returns flag-before-work`, `early-returns flag-before-work`"
            ),
            (
                "## Hint 4: a lock around the check or the set only",
                "`duplicates lock-around-check`, `duplicates check-outside-lock`, `double-checked`,\n`data-race`"
            ),
            ("## Hint 5: a lock around the work only", "`duplicates lock-around-act`"),
            ("## Hint 6: a read lock lets everyone in", "`duplicates read-lock`"),
            ("## Hint 8: the second promise", "`early-returns`, `early-returns returns-before-work`"),
            (
                "## Hint 9: a `return` inside a closure",
                "`functional duplicates return-leaves-closure`, `functional duplicates runs-again-alone`,\n"
                    + "`functional return-leaves-closure`, `functional runs-again-alone`"
            ),
            (
                "## Hint 10: a lock made inside `run`, or a semaphore that lets many in",
                "`duplicates lock-per-call`, `duplicates semaphore-count`, `semaphore-timeout`,\n`duplicates semaphore-timeout`"
            ),
        ] {
            #expect(hints.contains("\(heading)\n*For:* \(kinds)\n"), "\(heading)")
        }
        // Every duplicate diagnosis steps on to the general fix, hint 7, whose list spans lines.
        let general = try #require(hints.firstRange(of: "## Hint 7: one step, not two\n*For:* "))
        let list = String(hints[general.upperBound...]).components(separatedBy: "\n\n")[0]
        let mistakes = ["flag-after-work", "early-returns flag-before-work", "lock-around-check"]
        for kinds in mistakes + ["check-outside-lock", "lock-around-act", "read-lock"] {
            #expect(list.contains("`duplicates \(kinds)`"), "\(kinds)")
        }
    }

    @Test(
        "exercise 2: the flag set above the mark is sent to the flag-first hint, whether or not the work ran twice",
        .timeLimit(.minutes(20))
    )
    func flagFirstAboveTheMark() async throws {
        // Its read and its write have no mark between them, so a run rarely sees a second execution;
        // it always sees early returns, and the code tells a plain flag from a one-step exchange.
        let lines = try await Self.check(
            exercise: 2,
            .patch("\(Self.exercise2)/WrongFixes/FlagFirstAboveMark.patch"),
            diagnosis: "flag-before-work"
        )
        #expect(lines.contains { $0.hasPrefix("  FAIL  \(Self.waits)") }, "\(lines)")
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        #expect(text.contains("(`flag-before-work`)"), "\(text)")
        // The code still allows a second execution: a run that saw none says what it measured, never
        // `ok`, which would read as "the race is gone".
        #expect(!lines.contains { $0.hasPrefix("  ok    \(Self.exactlyOnce)") }, "\(lines)")
        if !lines.contains(where: { $0.hasPrefix("  FAIL  \(Self.exactlyOnce)") }) {
            let unseen =
                "-- \(Self.exactlyOnce) (every trial): no duplicate execution seen in 1,500 trials × 10 "
                + "operations, noise on; the code still allows one (read from it below)"
            #expect(text.contains(unseen), "\(text)")
        }
        Self.expectNext(lines, hint: 3, of: 10, in: "\(Self.exercise2)/hints.md")
    }

    @Test(
        "exercise 2: work queued with async is work not yet run, not lost: the hint on waiting",
        .timeLimit(.minutes(20))
    )
    func asyncOnASerialQueue() async throws {
        // Every call returns before the work runs, the first one too: the functional check says the
        // work ran later, the stress run finds it ran exactly once in every trial (counted once it
        // ran), and the diagnosis is the hand-off, not a race to the flag.
        let lines = try await Self.check(
            exercise: 2,
            .patch("\(Self.exercise2)/WrongFixes/SerialQueueAsync.patch"),
            diagnosis: "returns-before-work"
        )
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        #expect(
            text.contains(
                "FAIL the first call runs the work before it returns: executions: 0 when it returned; "
                    + "the work ran after `run` had returned, on another thread"
            ),
            "\(text)"
        )
        #expect(lines.contains { $0.hasPrefix("  ok    \(Self.exactlyOnce)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  FAIL  \(Self.waits)") }, "\(lines)")
        #expect(!text.contains("lost"), "\(text)")
        // Every call is counted, the one that queued the work too: never more than all of them.
        let early = try #require(text.firstMatch(of: /: ([0-9,]+) of 15,000 calls returned before it had run/))
        #expect((Int(early.1.filter(\.isNumber)) ?? 0) <= 15_000, "\(text)")
        // The queued block has no mark: why no pause was added, said once, on the first line that
        // counts the run; the next one only refers to it.
        #expect(text.ranges(of: "your code no longer reaches the marked window").count == 1, "\(text)")
        #expect(text.contains("operations, noise on but no pause added, as above"), "\(text)")
        let seen = /seen in the run: in [0-9,]+ of 1,500 trials the work ran only after .*`returns-before-work`/
        #expect(text.firstMatch(of: seen) != nil, "\(text)")
        Self.expectNext(lines, hint: 8, of: 10, in: "\(Self.exercise2)/hints.md")
    }

    @Test(
        "exercise 2: async with the mark kept in the queued block: the mark runs on the queue's thread, said once",
        .timeLimit(.minutes(20))
    )
    func asyncKeepingTheMark() async throws {
        // The runner binds its noise to the callers' threads; the queued block reaches the mark on
        // the queue's thread, which the check counts apart: the code does reach the mark.
        let lines = try await Self.check(
            exercise: 2,
            .patch("\(Self.exercise2)/WrongFixes/SerialQueueAsyncMarked.patch"),
            diagnosis: "returns-before-work"
        )
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        let elsewhere = "the marked window runs on another thread (a queue's), where the check adds no pause"
        #expect(text.ranges(of: elsewhere).count == 1, "\(text)")
        #expect(!text.contains("no longer reaches"), "\(text)")
        #expect(text.contains("operations, noise on but no pause added, as above"), "\(text)")
        Self.expectNext(lines, hint: 8, of: 10, in: "\(Self.exercise2)/hints.md")
    }

    @Test(
        "the starter's lost points list every outcome, or the most frequent and a count of the rest",
        .timeLimit(.minutes(20))
    )
    func starterOutcomes() async throws {
        let lines = try await Self.check(
            exercise: 3,
            .file("Lessons/03-actor-reentrancy/Exercise/Starter/Scoreboard.swift"),
            diagnosis: "lost-writes"
        )
        // "anomalies in 38 of 40 trials (8,000 operations, seed …)": the trials the outcomes add up to.
        let evidence = try #require(lines.first { $0.contains("anomalies in ") })
        // The starter promises "how many points were lost": the FAIL line counts them in points, out
        // of the points the adds were asked to add (one per add: 40 trials × 200).
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        let lost = try #require(
            text.firstMatch(of: /\); ([0-9,]+) of ([0-9,]+) points lost in all trials together/),
            "\(lines)"
        )
        #expect(lost.2 == "8,000", "\(lines)")
        #expect((Int(lost.1.filter(\.isNumber)) ?? .max) <= 8_000, "\(lines)")
        #expect(!text.contains("writes lost"))
        let anomalous = try #require(
            evidence.firstMatch(of: /anomalies in ([0-9,]+) of/).flatMap { Int($0.1.replacing(",", with: "")) }
        )
        let rows = lines.compactMap { line in
            line.firstMatch(of: #/^ {8}([0-9,]+) trials?: /#).flatMap { Int($0.1.replacing(",", with: "")) }
        }
        let rest = lines.compactMap { line in
            line.firstMatch(of: #/^ {8}and ([0-9,]+) other outcomes in ([0-9,]+) trials?$/#).flatMap { match in
                Int(match.2.replacing(",", with: ""))
            }
        }
        #expect(!rows.isEmpty && rows.count + rest.count <= 6, "\(lines)")
        #expect(rows.reduce(0, +) + rest.reduce(0, +) == anomalous, "\(lines)")
        #expect(rest.count <= 1)
        // The trials that kept every point have their row too: all the rows add up to the 40 trials.
        let acceptable = lines.compactMap { line in
            line.firstMatch(of: #/^ {8}([0-9,]+) trials? acceptable: all points kept$/#).flatMap {
                Int($0.1.replacing(",", with: ""))
            }
        }
        #expect(acceptable.count == (anomalous < 40 ? 1 : 0), "\(lines)")
        #expect(anomalous + acceptable.reduce(0, +) == 40, "\(lines)")
    }
}

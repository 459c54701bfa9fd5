import Foundation
import Testing

/// The place a participant's checks keep in an exercise's hints (`Scripts/exercise-hint`, which
/// `Scripts/check-exercise` asks after every FAIL): each check of a changed file that still shows
/// the bug names the next hint; an outcome the hints are not written for (a deadlock, a crash, a
/// functional failure) is no step of that sequence; a mistake the checks come back to after a
/// detour goes on after the furthest hint it reached. The sequences are fed to the script as the
/// checker keeps them between checks, without building or running a harness.
@Suite("a participant's checks step through an exercise's hints")
struct ExerciseHintSequenceTests {
    /// One check: its diagnosis, whether the file is the last check's, and what the checker names.
    struct Check {
        var diagnosis: String
        var unchanged = false
        /// `hinted N`, or `other` (the deadlock's or the functional failure's own advice).
        var names: String
    }

    /// Runs the checks in order, each with what the one before kept, as `Scripts/check-exercise`
    /// keeps it in `.build-exercise/last-N`.
    static func run(exercise folder: String, _ checks: [Check]) async throws {
        let root = ExerciseAdviceTests.root
        var last = (hint: "0", diagnosis: "-", furthest: "-")
        for (index, check) in checks.enumerated() {
            let (status, text) = try await Executable.capture(
                root.appendingPathComponent("Scripts/exercise-hint"),
                [
                    "Lessons/\(folder)/Exercise/hints.md", check.diagnosis, String(check.unchanged),
                    last.hint, last.diagnosis, last.furthest,
                ],
                in: root,
                stderr: .merged
            )
            #expect(status == 0, "\(text)")
            let fields = text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            try #require(fields.count == 4, "\(text)")
            let named = fields[0] == "hinted" ? "hinted \(fields[1])" : fields[0]
            #expect(named == check.names, "check \(index + 1) (\(check.diagnosis)): \(text)")
            last = (fields[1], fields[2], fields[3])
        }
    }

    @Test("a data race only ThreadSanitizer reported is the exercise's bug: it names the hint written for it")
    func dataRaceIsHinted() async throws {
        try await Self.run(exercise: "01-subscript-race", [Check(diagnosis: "data-race", names: "hinted 4")])
        try await Self.run(exercise: "02-check-then-act", [Check(diagnosis: "data-race", names: "hinted 4")])
        // With a kind read from the code, the hints written for that kind.
        try await Self.run(
            exercise: "06-async-data-source",
            [Check(diagnosis: "data-race unsynced-read", names: "hinted 4")]
        )
    }

    @Test("exercise 1: a deadlock between two lost-writes checks keeps the place in the hints")
    func deadlockKeepsThePlace() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "lock-taken-twice", names: "other"),
                Check(diagnosis: "lost-writes", names: "hinted 2"),
                Check(diagnosis: "sync-onto-own-queue", names: "other"),
                Check(diagnosis: "timeout", names: "other"),
                Check(diagnosis: "lost-writes", names: "hinted 3"),
                Check(diagnosis: "lost-writes", unchanged: true, names: "hinted 3"),
            ]
        )
    }

    @Test("exercise 1: a setter made synchronous gets its own hint, and the plain lost keys never reach it")
    func syncSetterHasItsOwnHint() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "lost-writes sync-setter", names: "hinted 5"),
                Check(diagnosis: "lost-writes sync-setter", names: "hinted 5"),
                // Back to plain lost keys: hint 1 was read, so the next one.
                Check(diagnosis: "lost-writes", names: "hinted 2"),
                Check(diagnosis: "lost-writes", names: "hinted 3"),
                Check(diagnosis: "lost-writes", names: "hinted 4"),
                Check(diagnosis: "lost-writes", names: "hinted 4"),
            ]
        )
    }

    @Test("exercise 2: work handed off with async gets the hint on waiting, as a compare-exchange does")
    func returnsBeforeWorkHasTheWaitingHint() async throws {
        try await Self.run(
            exercise: "02-check-then-act",
            [
                Check(diagnosis: "duplicates flag-after-work", names: "hinted 1"),
                Check(diagnosis: "returns-before-work early-returns returns-before-work", names: "hinted 8"),
                Check(diagnosis: "early-returns returns-before-work", names: "hinted 8"),
            ]
        )
    }

    @Test("exercise 2: a lock around the check or the set only gets the hint on such locks, then the general fix")
    func lockThatMissesTheCheck() async throws {
        try await Self.run(
            exercise: "02-check-then-act",
            [
                Check(diagnosis: "duplicates check-outside-lock", names: "hinted 4"),
                Check(diagnosis: "duplicates check-outside-lock", names: "hinted 7"),
                Check(diagnosis: "duplicates check-outside-lock", names: "hinted 7"),
                Check(diagnosis: "duplicates lock-around-check", names: "hinted 4"),
                Check(diagnosis: "duplicates lock-around-check", names: "hinted 7"),
            ]
        )
    }

    @Test("exercise 1: a lock around the setter only gets the hint on atomic accessors, then the fix")
    func setterLockHasTheAtomicHint() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "lost-writes setter-lock", names: "hinted 3"),
                Check(diagnosis: "lost-writes setter-lock", names: "hinted 4"),
                Check(diagnosis: "lost-writes setter-lock", names: "hinted 4"),
            ]
        )
    }

    /// A crash of the race carries the kinds the harness read from the code before its run from many
    /// threads (`Scripts/check-exercise` adds them): the crash's hint is one written for that code,
    /// never the next hint in order when that one is for code the file does not have (hint 5, the
    /// setter that waits for its barrier). The crash's kinds are given as the checker would give them.
    @Test("exercise 1: a crash of code read as a setter lock gets that lock's hints, never the next in order")
    func raceCrashFollowsTheCode() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes atomic-property", names: "hinted 3"),
                // Another mistake: from its own first hint, which says why a read on another queue
                // waits for no store.
                Check(diagnosis: "functional reads-do-not-wait functional lost-writes", names: "hinted 3"),
                Check(diagnosis: "functional reads-do-not-wait functional lost-writes", names: "hinted 4"),
                // A changed file that crashed, read as a lock around the setter: not hint 5.
                Check(diagnosis: "race-crash setter-lock", names: "hinted 3"),
                Check(diagnosis: "race-crash setter-lock", names: "hinted 4"),
                Check(diagnosis: "race-crash setter-lock", names: "hinted 4"),
                Check(diagnosis: "race-crash setter-lock", unchanged: true, names: "hinted 4"),
            ]
        )
    }

    /// The audit's sequence: plain lost keys up to hint 4, then a crash of code read as each mistake.
    /// A crash with no kind read from the code still steps through every hint in order (none of
    /// exercise 1's hints names `race-crash`).
    @Test(
        "exercise 1: after hint 4, a crash gets a hint written for the code it read, or the next for a bare crash",
        arguments: [
            ("race-crash setter-lock", 3),
            ("race-crash atomic-property", 3),
            ("race-crash sync-setter", 5),
            // Reads on another queue than the stores, said under the single-threaded FAIL, then a
            // crash: the first hint on such reads (hint 3, then the fix in hint 4).
            ("race-crash reads-do-not-wait", 3),
            ("race-crash", 5),
        ]
    )
    func raceCrashAfterHintFour(diagnosis: String, hint: Int) async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            (1...4).map { Check(diagnosis: "lost-writes", names: "hinted \($0)") }
                + [Check(diagnosis: diagnosis, names: "hinted \(hint)")]
        )
    }

    /// A getter moved to a serial queue of its own, the setter unchanged: hint 3, which says a read on
    /// another queue waits for none of the stores, before hint 4, which gives the fix.
    @Test("exercise 1: a first try with the getter on another queue gets hint 3, not the fix in hint 4")
    func getterOnAnotherQueueFirstTry() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "functional lost-writes reads-do-not-wait", names: "hinted 3"),
                Check(diagnosis: "functional lost-writes reads-do-not-wait", names: "hinted 4"),
                Check(diagnosis: "functional lost-writes reads-do-not-wait", names: "hinted 4"),
            ]
        )
        // After the starter's first hint, too.
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "functional lost-writes reads-do-not-wait", names: "hinted 3"),
            ]
        )
    }

    /// The check and the set each under the lock, the flag set before the work: no hint names the
    /// whole diagnosis (duplicates and early returns, from a lock let go in between), so the hints
    /// that name the kind read from the code, hint 4 then hint 7, and never hint 1 or hint 5 (a
    /// lock around the work only, which this code does not have).
    @Test(
        "exercise 2: a lock let go between the check and the set, with early returns, gets the hints on that lock",
        arguments: [
            ([] as [String], [4, 7, 7]),
            (["duplicates lock-around-check"], [4, 7]),
            (["duplicates check-outside-lock"], [4, 7]),
            (["duplicates flag-after-work", "duplicates flag-after-work"], [4, 7]),
        ]
    )
    func lockLetGoWithEarlyReturns(before: [String], hints: [Int]) async throws {
        let earlier = before.enumerated().map { index, diagnosis in
            Check(diagnosis: diagnosis, names: "hinted \(diagnosis.hasSuffix("flag-after-work") ? index + 1 : 4)")
        }
        try await Self.run(
            exercise: "02-check-then-act",
            earlier
                + hints.map { Check(diagnosis: "duplicates lock-around-check early-returns", names: "hinted \($0)") }
        )
    }

    @Test("exercise 2: a semaphore that lets more than one caller in gets the semaphore's hint")
    func semaphoreCountHasItsHint() async throws {
        try await Self.run(
            exercise: "02-check-then-act",
            [
                Check(diagnosis: "duplicates flag-after-work", names: "hinted 1"),
                Check(diagnosis: "duplicates semaphore-count", names: "hinted 10"),
                Check(diagnosis: "duplicates semaphore-count", names: "hinted 10"),
            ]
        )
        let hints = try String(
            contentsOf: ExerciseAdviceTests.root.appendingPathComponent(
                "Lessons/02-check-then-act/Exercise/hints.md"
            ),
            encoding: .utf8
        )
        let tenth = try #require(hints.components(separatedBy: "\n## Hint ").last)
        #expect(tenth.contains("`DispatchSemaphore(value: 2)`"), "\(tenth)")
    }

    @Test("exercise 2: a lock made inside `run` gets its own hint, not the one on a lock let go")
    func lockPerCallHasItsOwnHint() async throws {
        try await Self.run(
            exercise: "02-check-then-act",
            [
                Check(diagnosis: "duplicates flag-after-work", names: "hinted 1"),
                Check(diagnosis: "duplicates lock-per-call", names: "hinted 10"),
                Check(diagnosis: "duplicates lock-per-call", names: "hinted 10"),
                Check(diagnosis: "duplicates lock-around-check", names: "hinted 4"),
            ]
        )
    }

    @Test("exercise 1: back from a detour, a mistake goes on after the furthest hint it reached, not from hint 1")
    func detourKeepsTheFurthestHint() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "lost-writes", names: "hinted 2"),
                Check(diagnosis: "lost-writes", names: "hinted 3"),
                Check(diagnosis: "lost-writes sync-setter", names: "hinted 5"),
                // A deadlock on the way back keeps the place, and the furthest hints with it.
                Check(diagnosis: "lock-taken-twice", names: "other"),
                Check(diagnosis: "lost-writes", names: "hinted 4"),
                // The detour's own mistake, met again, stays on its hint too.
                Check(diagnosis: "lost-writes sync-setter", names: "hinted 5"),
                Check(diagnosis: "lost-writes", names: "hinted 4"),
                // The same file checked again names the same hint.
                Check(diagnosis: "lost-writes", unchanged: true, names: "hinted 4"),
            ]
        )
    }

    @Test("exercise 2: each wrong lock, met again after another, goes on after its own furthest hint")
    func eachMistakeKeepsItsFurthestHint() async throws {
        try await Self.run(
            exercise: "02-check-then-act",
            [
                Check(diagnosis: "duplicates check-outside-lock", names: "hinted 4"),
                Check(diagnosis: "duplicates lock-around-check", names: "hinted 4"),
                Check(diagnosis: "duplicates lock-around-check", names: "hinted 7"),
                Check(diagnosis: "duplicates check-outside-lock", names: "hinted 7"),
            ]
        )
    }

    @Test("exercise 1: another hinted mistake starts from its own first hint; a functional failure keeps it")
    func anotherMistakeStartsOver() async throws {
        try await Self.run(
            exercise: "01-subscript-race",
            [
                Check(diagnosis: "lost-writes", names: "hinted 1"),
                Check(diagnosis: "lost-writes", names: "hinted 2"),
                Check(diagnosis: "lost-writes atomic-property", names: "hinted 3"),
                Check(diagnosis: "functional", names: "other"),
                Check(diagnosis: "lost-writes atomic-property", names: "hinted 4"),
                Check(diagnosis: "lost-writes atomic-property", names: "hinted 4"),
            ]
        )
    }

    /// Exercise 3's hints build up to the fix, which comes last: each mistake gets its own hint,
    /// then the fix.
    @Test(
        "exercise 3: each mistake steps to its hint, then to the fix, the last hint",
        arguments: [
            ("lost-writes", [1, 2, 3, 5, 5]),
            ("lost-writes recheck-drop", [3, 5, 5]),
            ("lost-writes recheck-stale", [5, 5]),
            ("lost-writes recheck-other", [3, 5, 5]),
            ("timeout blocking-across-await", [3, 3]),
            ("lost-writes await-in-expression", [4, 5]),
            ("concurrent retry-asks-again", [3, 5]),
        ]
    )
    func exercise3BuildsUpToTheFix(diagnosis: String, hints: [Int]) async throws {
        try await Self.run(
            exercise: "03-actor-reentrancy",
            hints.map { Check(diagnosis: diagnosis, names: "hinted \($0)") }
        )
        let text = try String(
            contentsOf: ExerciseAdviceTests.root.appendingPathComponent(
                "Lessons/03-actor-reentrancy/Exercise/hints.md"
            ),
            encoding: .utf8
        )
        let last = try #require(text.components(separatedBy: "\n## Hint ").last)
        #expect(last.hasPrefix("5: don't carry state across an `await`"), "\(last)")
        // The wrong fixes it names are given from the repository's root.
        #expect(text.contains("(`Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckAfterAwait.patch`)"))
        #expect(!text.contains("(`WrongFixes/"))
    }

    /// Exercise 4: the starter's record lock gets hint 1 (a question), then the explanation and the
    /// call; the record lock with a lock made per call beside it starts at that explanation (hint 2,
    /// the first hint that explains what to fix first), then the call, then hint 4 on the lock
    /// made per call, and stays there; the lock made per call alone goes straight to hint 4.
    @Test(
        "exercise 4: the record lock with a lock made per call steps through the record lock's hints, then hint 4",
        arguments: [
            ("lost-writes process-owner", [1, 2, 3, 3]),
            ("lost-writes process-owner local-lock", [2, 3, 4, 4]),
            ("lost-writes local-lock", [4, 4]),
        ]
    )
    func exercise4TwoLocks(diagnosis: String, hints: [Int]) async throws {
        try await Self.run(
            exercise: "04-coordinator-locking",
            hints.map { Check(diagnosis: diagnosis, names: "hinted \($0)") }
        )
    }

    @Test("exercise 4: from the starter's hint 1, a lock made per call added to the record lock gets hint 2")
    func exercise4LockAddedAfterTheStarter() async throws {
        try await Self.run(
            exercise: "04-coordinator-locking",
            [
                Check(diagnosis: "lost-writes process-owner", names: "hinted 1"),
                Check(diagnosis: "lost-writes process-owner local-lock", names: "hinted 2"),
                Check(diagnosis: "lost-writes process-owner local-lock", names: "hinted 3"),
                // The NSLock taken out again: the record lock's own sequence goes on after hint 1.
                Check(diagnosis: "lost-writes process-owner", names: "hinted 2"),
            ]
        )
    }

    /// Exercise 5 names documents torn at the end `torn-at-end`, beside who read a torn file: alone
    /// they get the rename's hint; with torn loads (the starter) every hint from the first. Stores
    /// that failed because a file they wrote was gone (a shared temporary name) get the rename's
    /// hint, which asks for a unique name; other failed stores get no hint (`store-failed`). A read
    /// that found no file for a stored document (removed before the new one was moved in) gets the
    /// rename's hint too. A barrier on a queue made per store (`new-queue`), or queued from a block on
    /// another queue (`queued-late`), stays on the barrier's hint.
    @Test(
        "exercise 5: documents torn at the end have their own name and hint",
        arguments: [
            ("torn-at-end", [3, 3]),
            ("torn-at-end unordered-stores", [2, 4, 4]),
            ("torn-at-end inconsistencies torn-load", [1, 2, 3, 4, 4]),
            ("errors staging-name", [3, 3]),
            ("missing-file", [3, 3]),
            ("unordered-stores new-queue", [2, 2]),
            ("unordered-stores queued-late", [2, 2]),
        ]
    )
    func exercise5TornAtTheEnd(diagnosis: String, hints: [Int]) async throws {
        try await Self.run(
            exercise: "05-persistent-store",
            hints.map { Check(diagnosis: diagnosis, names: "hinted \($0)") }
        )
    }

    @Test("exercise 5: a store that failed for another reason gets the checker's advice, not a hint")
    func exercise5StoreFailed() async throws {
        try await Self.run(exercise: "05-persistent-store", [Check(diagnosis: "errors store-failed", names: "other")])
    }

    /// Exercise 6's crashes: memory two threads changed at once is its race, stepped through the
    /// race's hints; with a concurrent queue and no barrier read from the code (the checker adds
    /// `no-barrier`), the barrier's hint, and nothing else, for a crash or a ThreadSanitizer report.
    @Test(
        "exercise 6: a race that crashed steps through the race's hints, a queue without a barrier gets the barrier's",
        arguments: [
            ("race-crash", [1, 2, 3, 4, 5, 5]),
            ("race-crash no-barrier", [7, 7]),
            ("crash no-barrier", [7, 7]),
            ("data-race no-barrier", [7, 7]),
            ("inconsistencies writer-two-sets no-barrier", [7, 7]),
            // The harness's reading of an async store: a snapshot right after a replace missed it.
            ("functional no-barrier", [7, 7]),
            ("functional inconsistencies no-barrier", [7, 7]),
        ]
    )
    func exercise6RaceCrash(diagnosis: String, hints: [Int]) async throws {
        try await Self.run(
            exercise: "06-async-data-source",
            hints.map { Check(diagnosis: diagnosis, names: "hinted \($0)") }
        )
    }

    /// Exercise 6's reader that takes two looks (bare, or each under a lock of its own) with a whole
    /// writer: the one-value hint, at once, after the starter's first hint or the writer's hint
    /// too, and again while the reader is still that; a concurrent queue with no barrier whose
    /// stores tore (read by the harness, `no-barrier` beside `inconsistencies`): the barrier's hint.
    @Test(
        "exercise 6: a reader's two looks get the one-value hint, a queue without a barrier the barrier's",
        arguments: [
            ([("inconsistencies reader-two-looks", 4), ("inconsistencies reader-two-looks", 4)]),
            ([("inconsistencies", 1), ("inconsistencies reader-two-looks", 4)]),
            ([("inconsistencies writer-two-sets", 3), ("inconsistencies reader-two-looks", 4)]),
            // A lock per property, both halves named: the writer's hint, then the one-value hint,
            // which stays once the writer is whole and the reader still takes two looks.
            ([
                ("inconsistencies writer-two-sets reader-two-looks", 3),
                ("inconsistencies writer-two-sets reader-two-looks", 4),
                ("inconsistencies reader-two-looks", 4),
            ]),
            ([("inconsistencies no-barrier", 7), ("inconsistencies no-barrier", 7)]),
        ]
    )
    func exercise6ReaderTwoLooks(_ steps: [(String, Int)]) async throws {
        try await Self.run(
            exercise: "06-async-data-source",
            steps.map { Check(diagnosis: $0.0, names: "hinted \($0.1)") }
        )
    }
}

import Foundation
import Testing

/// Hints for mistakes only the code tells apart: the run sees the same lost keys or points as the
/// starter's, the check reads the code and says so. In `ExerciseAdviceTests`, whose checks run one
/// at a time.
extension ExerciseAdviceTests {
    /// A planted file of an exercise, the diagnosis and hint it must get, and the words of the line
    /// read from the code (nil: no such line, as for a starter).
    struct FromCodeCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var exercise: Int
        var file: String
        var kind: String
        var hint: Int
        var readFromCode: String?
    }

    @Test(
        "a mistake only the code tells apart is sent to the hint written for it, the starter to the first",
        .timeLimit(.minutes(20)),
        arguments: [
            FromCodeCase(
                testDescription: "exercise 1's starter",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/Starter/Storage.swift",
                kind: "lost-writes",
                hint: 1,
                readFromCode: nil
            ),
            FromCodeCase(
                testDescription: "exercise 1: a getter and a setter that each take a lock",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/AtomicProperty.patch",
                kind: "atomic-property",
                hint: 3,
                readFromCode: "a getter and a setter that are each atomic on their own"
            ),
            FromCodeCase(
                testDescription: "exercise 1: a lock around each accessor's queue call, the barrier kept",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/LockAroundQueue.patch",
                kind: "atomic-property",
                hint: 3,
                readFromCode: "a getter and a setter that are each atomic on their own"
            ),
            FromCodeCase(
                testDescription: "exercise 1: the starter's accessors on a serial queue",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/SerialQueue.patch",
                kind: "atomic-property",
                hint: 3,
                readFromCode: "a getter and a setter that are each atomic on their own"
            ),
            FromCodeCase(
                testDescription: "exercise 1: a lock around the setter only, the getter as it was",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/LockAroundSetter.patch",
                kind: "setter-lock",
                hint: 3,
                readFromCode: "the setter takes a lock and the getter does not"
            ),
            FromCodeCase(
                testDescription: "exercise 1: a setter that waits for its barrier",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/SyncSetter.patch",
                kind: "sync-setter",
                hint: 5,
                readFromCode: "the setter waits for its barrier"
            ),
            FromCodeCase(
                testDescription: "exercise 1: the getter on a queue of its own, the setter's barrier kept",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/GetterOnAnotherQueue.patch",
                kind: "reads-do-not-wait",
                // A first check: the hint on why such a read waits for no store, not the fix (hint 4).
                hint: 3,
                readFromCode: "your reads run on `readQueue`, your stores are queued with `async` on `queue`"
            ),
            FromCodeCase(
                testDescription: "exercise 1: the barrier fix, with a getter that reads `_contents` taking no queue",
                exercise: 1,
                file: "Lessons/01-subscript-race/Exercise/WrongFixes/UnsyncedRead.swift",
                kind: "unsynced-read",
                hint: 4,
                readFromCode: "`data(forIdentifier:)` reads `_contents` taking no queue and no lock"
            ),
            FromCodeCase(
                testDescription: "exercise 2: double-checked locking, the flag read before the lock as a fast path",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/DoubleCheckedLocking.patch",
                kind: "double-checked",
                hint: 4,
                readFromCode: "`run` reads `didExecute` before it takes its lock"
            ),
            FromCodeCase(
                testDescription: "exercise 2: a `return` inside the `sync` that leaves the closure, not `run`",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/ReturnLeavesClosure.patch",
                kind: "return-leaves-closure",
                hint: 9,
                readFromCode: "a `return` inside a closure (`sync`, `withLock`) leaves the closure, not `run`"
            ),
            FromCodeCase(
                testDescription: "exercise 2: a lock made inside `run`, a new one on every call",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/LockPerCall.patch",
                kind: "lock-per-call",
                hint: 10,
                readFromCode: "`run` makes a new `NSLock` on every call"
            ),
            FromCodeCase(
                testDescription: "exercise 2: one stored semaphore held across everything, made with 2",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/SemaphoreValue2.swift",
                kind: "semaphore-count",
                hint: 10,
                readFromCode: "a semaphore made with value 2 lets 2 callers in at once"
            ),
            FromCodeCase(
                testDescription: "exercise 2: a semaphore made with 0 that `run` signals before it waits on it",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/SemaphoreSignalledFirst.swift",
                kind: "semaphore-count",
                hint: 10,
                readFromCode: "`run` signals its semaphore before it waits on it"
            ),
            FromCodeCase(
                testDescription: "exercise 2: the check, then the set, each under the lock, then the work",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/LockCheckAndSetSeparately.swift",
                kind: "lock-around-check",
                hint: 4,
                readFromCode: "`run` takes a lock more than once"
            ),
            FromCodeCase(
                testDescription: "exercise 2: the flag's own accessors locked, no lock in `run`: only what the run saw",
                exercise: 2,
                file: "Lessons/02-check-then-act/Exercise/WrongFixes/AtomicFlag.patch",
                kind: "lock-around-check",
                hint: 4,
                readFromCode: nil
            ),
            FromCodeCase(
                testDescription: "exercise 4: a static map of locks changed outside any lock",
                exercise: 4,
                file: "Lessons/04-coordinator-locking/Exercise/WrongFixes/UnguardedLockMap.patch",
                kind: "unguarded-map",
                hint: 4,
                readFromCode:
                    "`locks`, a `static var` every FileCounter shares, is changed in `increment()` outside any lock"
            ),
            FromCodeCase(
                testDescription: "exercise 4: a static map of locks read outside its lock (double-checked)",
                exercise: 4,
                file: "Lessons/04-coordinator-locking/Exercise/WrongFixes/DoubleCheckedLockMap.patch",
                kind: "unguarded-map",
                hint: 4,
                readFromCode:
                    "is read in `increment()` outside any lock: another increment may be changing it at that "
                    + "moment, a data race on the dictionary"
            ),
            FromCodeCase(
                testDescription: "exercise 4: a map of locks in an object a static let shares, changed unguarded",
                exercise: 4,
                file: "Lessons/04-coordinator-locking/Exercise/WrongFixes/UnguardedRegistryObject.swift",
                kind: "unguarded-map",
                hint: 4,
                readFromCode: "`locks`, a `var` of the one `LockRegistry` in `static let registry` every FileCounter "
                    + "shares, is changed in `lock(for:)` outside any lock"
            ),
            FromCodeCase(
                testDescription: "exercise 4: a lock file opened once per instance, shared by every thread of it",
                exercise: 4,
                file: "Lessons/04-coordinator-locking/Exercise/WrongFixes/DescriptionPerInstance.patch",
                kind: "shared-owner",
                hint: 4,
                readFromCode: nil
            ),
            FromCodeCase(
                testDescription: "exercise 3's starter",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/Starter/Scoreboard.swift",
                kind: "lost-writes",
                hint: 1,
                readFromCode: nil
            ),
            FromCodeCase(
                testDescription: "exercise 3: a re-check after the await that drops the add",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckAfterAwait.patch",
                kind: "recheck-drop",
                hint: 3,
                readFromCode: "an add that finds it changed drops its points"
            ),
            FromCodeCase(
                testDescription: "exercise 3: a re-check after the await that writes in both branches, one stale",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckWritesStale.patch",
                kind: "recheck-other",
                hint: 3,
                // It re-checks whether the player is new, not the score: hint 3 is written for that.
                readFromCode: "after its `await` an add checks something other than the score it read "
                    + "(`wasNew, scores[player] == nil`), then still writes a value read before the `await` "
                    + "(`current`)"
            ),
            FromCodeCase(
                testDescription: "exercise 3: a re-check of the total after the await, then a stale write",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckTotal.swift",
                kind: "recheck-other",
                hint: 3,
                readFromCode: "after its `await` an add checks something other than the score it read "
                    + "(`total == totalBefore`), then still writes a value read before the `await` (`current`)"
            ),
            FromCodeCase(
                testDescription: "exercise 3: a re-check of the player count after the await, then a stale write",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckCount.patch",
                kind: "recheck-other",
                hint: 3,
                readFromCode: "after its `await` an add checks something other than the score it read "
                    + "(`scores.count != countBefore`)"
            ),
            FromCodeCase(
                testDescription: "exercise 3: a re-check of the score after the await, then a stale write",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/RecheckScoreWritesStale.patch",
                kind: "recheck-stale",
                hint: 5,
                readFromCode: "after its `await` an add compares the score, then still writes a value read "
                    + "before the `await` (`current`): that value is stale"
            ),
            FromCodeCase(
                testDescription: "exercise 3: a guard after the await on the approved points, not a re-check",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/GuardAfterAwait.patch",
                kind: "lost-writes",
                hint: 1,
                readFromCode: nil
            ),
            FromCodeCase(
                testDescription: "exercise 3: the await inside the sum, after the read of the score",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/AwaitInsideTheSum.patch",
                kind: "await-in-expression",
                hint: 4,
                readFromCode: "Swift reads the score before the `await`"
            ),
            FromCodeCase(
                testDescription: "exercise 3: the await first in the sum, one await for the whole statement",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/WrongFixes/AwaitBeforeTheSum.patch",
                kind: "await-in-expression",
                hint: 4,
                readFromCode: "Swift reads the score before the `await`"
            ),
        ]
    )
    func mistakeReadFromCode(_ planted: FromCodeCase) async throws {
        let path = planted.file
        let lines = try await Self.check(exercise: planted.exercise, Planted(path), diagnosis: planted.kind)
        let hints = path.replacing(/Exercise\/.*/, with: "Exercise/hints.md")
        let count = try String(contentsOf: Self.root.appendingPathComponent(hints), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("## Hint") }.count
        Self.expectNext(lines, hint: planted.hint, of: count, in: hints)
        let text = Self.joined(lines)
        #expect(text.contains("read from your code") == (planted.readFromCode != nil), "\(lines)")
        // The name hints.md's *For* lines use is printed: on the FAIL line, or the line read from code.
        #expect(text.contains("(`\(planted.kind)`)"), "\(lines)")
        // A lock held across the check and the set is never blamed for the work running again.
        if planted.kind == "return-leaves-closure" {
            #expect(!text.contains("lock-around-check"), "\(lines)")
            #expect(text.contains("one thread's later calls ran the work again"), "\(lines)")
        }
        // Code that uses shared state outside a lock is not run: the run would pass or crash by luck.
        if planted.kind == "unguarded-map" {
            #expect(text.contains("the concurrent run is left out"), "\(lines)")
            #expect(!text.contains("200 concurrent increments"), "\(lines)")
        }
        if let words = planted.readFromCode {
            #expect(text.contains(words), "\(lines)")
            // Under the FAIL it explains, not under a later requirement's `ok` line. The line opens
            // with what the run saw, if it says that first (the words after it may wrap anywhere).
            let opening = text.contains("seen in the run: ") ? "seen in the run: " : "read from your code"
            let above = Self.requirement(above: opening, in: lines)
            #expect(above?.hasPrefix("  FAIL  ") == true, "\(lines)")
        }
        // A lock the code as read does not show letting go: the line says what the run saw, and that
        // the code takes a lock, nothing about where.
        if planted.kind == "lock-around-check", planted.readFromCode == nil {
            #expect(text.contains("the check and the set were not one critical section under one lock"), "\(lines)")
            #expect(!text.contains("lets go"), "\(lines)")
        }
        // A semaphore that lets many in is not called a lock that lets go between the check and the
        // set: it is held across them, or it locks nothing.
        if planted.kind == "semaphore-count" {
            #expect(!text.contains("lock-around-check") && !text.contains("lets go"), "\(lines)")
        }
        // A lock made on every call is not blamed for letting go between the check and the set.
        if planted.kind == "lock-per-call" {
            #expect(!text.contains("lock-around-check") && !text.contains("lets go"), "\(lines)")
        }
    }
}

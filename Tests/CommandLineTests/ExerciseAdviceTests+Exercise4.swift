import Foundation
import Testing

/// Exercise 4's hint follows which lock let two increments into the read-modify-write together:
/// the harness watches the window between the read and the write, names the lock the code holds
/// there in one line, and adds its kind to the diagnosis; the hint marked with that kind is the
/// one the checker names. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// Per planted file of exercise 4 (from its Exercise folder): the kind of lock its failure is
    /// diagnosed with, the hint that kind is sent to, and what the overlap line says of the lock.
    @Test(
        "exercise 4's failures are sent to the hint for the lock that let two increments in",
        .timeLimit(.minutes(20)),
        arguments: [
            (
                "Starter/FileCounter.swift", "process-owner", 1,
                "each holding `lockRecord`'s lock: two threads held that lock at the same time",
            ),
            // The same record lock taken with `fcntl` itself: the same owner, the same hint.
            (
                "WrongFixes/RawFcntlRecordLock.patch", "process-owner", 1,
                "each holding the record lock that `fcntl(F_SETLKW)` takes (read from your code): two threads "
                    + "held that lock at the same time",
            ),
            ("WrongFixes/LockInTheInstance.patch", "instance-lock", 4, "stored in its own FileCounter (`lock`)"),
            (
                "WrongFixes/QueueInTheInstance.patch", "instance-lock", 4,
                "FileCounter (`queue`): each `DispatchQueue(label:)` call makes a new queue",
            ),
            (
                "WrongFixes/LockMadePerCall.patch", "local-lock", 4,
                "each holding the `NSLock` its own call of `increment()` made",
            ),
            (
                "WrongFixes/TemporaryLock.patch", "local-lock", 4,
                "each holding the `NSLock` its own call of `increment()` made",
            ),
            ("WrongFixes/OneDescriptionForAll.patch", "shared-owner", 4, "each holding `lockDescription`'s lock"),
            ("WrongFixes/LockReadAndWrite.patch", "overlap", 5, "takes its lock more than once"),
            ("WrongFixes/LockDescriptionTwice.patch", "overlap", 5, "takes its lock more than once"),
            // A lock the code reading does not find: the line says only what the run saw, and
            // each reason a lock held around the window can have for letting a second increment in.
            (
                "WrongFixes/LockFromAHelper.patch", "overlap", 5,
                "did not keep it out (it does not cover the whole read-modify-write, other increments do "
                    + "not take the same lock, or every increment is the same owner of it: hint 1)",
            ),
            ("WrongFixes/LockTheCounterFile.patch", "renamed-file", 6, "a lock on the counter file itself"),
            (
                "WrongFixes/ReadBeforeTheLock.patch", "read-outside", 5,
                "`increment()` reads the counter before it takes its lock",
            ),
        ]
    )
    func exercise4HintFollowsTheLock(file: String, kind: String, hint: Int, lock: String) async throws {
        let exercise = "Lessons/04-coordinator-locking/Exercise/"
        let lines = try await Self.check(exercise: 4, Planted(exercise + file), diagnosis: kind)
        Self.expectNext(lines, hint: hint, of: 6, in: "\(exercise)hints.md")
        // The overlap line is wrapped: its words are checked in the joined text.
        let text = Self.joined(lines)
        // Both counts say what they count: the lost ones out of all trials' increments, the
        // overlaps as those seen at the mark out of the same total, claiming no bound.
        let lost = /[0-9,]+ of 1,000 increments lost in all trials together/
        #expect(text.firstMatch(of: lost) != nil, "\(lines)")
        // A read before the lock loses increments with none at the window together: the line says so.
        let overlap =
            kind == "read-outside"
            ? /none of the 1,000 increments reached `Race.window` while another was paused there, and increments were still lost/
            : /[1-9][0-9,]* of the 1,000 increments reached `Race.window` while another was paused there, between its read and its save \(a save of a stale count undoes every increment saved since its read: one overlap can lose many\)/
        #expect(text.firstMatch(of: overlap) != nil, "\(lines)")
        #expect(!text.contains("lower bound") && !text.contains("at least"), "\(lines)")
        #expect(text.contains(lock), "\(lines)")
        // What was seen, not who owns the lock: the README and hint 1 leave that question to the reader.
        #expect(!text.contains("owner is"), "\(lines)")
        // The line ends with the name hints.md lists the hint under.
        #expect(text.contains("(`\(kind)`)"), "\(lines)")
    }

    /// A second lock taken around the starter's record lock, made in each call or stored in the
    /// instance, as the code has it.
    struct SecondLockCase: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let patch: String
        let diagnosis: String
        /// The line that names the second lock, after the record lock's.
        let secondLine: String
    }

    /// The starter's record lock kept and a second lock taken around it: neither keeps another
    /// increment out, and the check says so of both, each line with its own name, the record lock's
    /// first, under the per-increment run's FAIL. The hint is the first that explains the record
    /// lock's owner (hint 2, hint 1 only asks), whose fix alone passes; the second lock's hint comes
    /// after.
    @Test(
        "exercise 4: the record lock and a second lock around it are both named, hint 2 first",
        .timeLimit(.minutes(20)),
        arguments: [
            SecondLockCase(
                testDescription: "an NSLock made per call",
                patch: "RecordLockAndLockPerCall.patch",
                diagnosis: "local-lock",
                secondLine: "and each held the `NSLock` its own call of `increment()` made (read from your code): no "
                    + "other increment ever takes that one, so it keeps none out either (`local-lock`)"
            ),
            SecondLockCase(
                testDescription: "a lock stored in the instance",
                patch: "RecordLockAndLockInTheInstance.patch",
                diagnosis: "instance-lock",
                secondLine: "and each held the lock stored in its own FileCounter (`lock`): a new FileCounter has "
                    + "a new lock, so that lock keeps no other increment out either (`instance-lock`)"
            ),
        ]
    )
    func exercise4RecordLockAndSecondLock(_ planted: SecondLockCase) async throws {
        let exercise = "Lessons/04-coordinator-locking/Exercise/"
        let lines = try await Self.check(
            exercise: 4,
            Planted(exercise + "WrongFixes/" + planted.patch),
            diagnosis: planted.diagnosis
        )
        Self.expectNext(lines, hint: 2, of: 6, in: "\(exercise)hints.md")
        let text = Self.joined(lines)
        let recordLock =
            "each holding `lockRecord`'s lock: two threads held that lock at the same time (`process-owner`)"
        let first = try #require(text.range(of: recordLock), "\(lines)")
        let second = try #require(text.range(of: planted.secondLine), "\(lines)")
        #expect(first.upperBound < second.lowerBound, "\(lines)")
        // Both lines explain the lost increments of the one FAIL, the per-increment run's.
        #expect(
            Self.requirement(above: String(planted.secondLine.prefix(30)), in: lines)?.hasPrefix(
                "  FAIL  200 concurrent increments of one file"
            ) == true,
            "\(lines)"
        )
    }

    /// The reference solution shares no state; each alternative's map of locks, shared by every
    /// instance, is guarded by a lock of its own (a lock released before an early return, a helper
    /// that takes it around a closure, a serial queue's `sync(execute:)`), and the check says it read
    /// that from the code.
    @Test(
        "exercise 4's solutions pass, a map of locks guarded by its own lock read as such",
        .timeLimit(.minutes(20)),
        arguments: [
            ("Solution/FileCounter.swift", nil), ("Alternatives/LockPerFile.patch", "`locks`"),
            ("Alternatives/EarlyReturnUnlock.swift", "`fileLocks`"),
            ("Alternatives/SynchronizedHelper.swift", "`fileLocks`"),
            ("Alternatives/QueueSyncExecute.swift", "`fileLocks`"),
        ]
    )
    func exercise4SolutionsPass(file: String, shared: String?) async throws {
        let text = try await Self.checkPasses(exercise: 4, Planted("Lessons/04-coordinator-locking/Exercise/" + file))
        let lines = text.split(separator: "\n").map(String.init)
        let read = lines.filter { $0.contains("state every FileCounter shares") }
        if let shared {
            let line =
                "  ok    state every FileCounter shares (\(shared)) is used only under a lock (read from your code)"
            #expect(read == [line], "\(text)")
        } else {
            #expect(read.isEmpty, "\(text)")
        }
    }

    @Test("exercise 4's hints are marked with the kinds of lock that send a participant to them")
    func exercise4HintsAreMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/04-coordinator-locking/Exercise/hints.md"),
            encoding: .utf8
        )
        #expect(!hints.contains("<!--"), "nothing an editor shows as markup")
        #expect(hints.contains("## Hint 1: whom does the lock exclude?\n*For:* `lost-writes process-owner`\n"))
        // The record lock with a lock made per call beside it: hints 2 and 3 on the record lock's
        // owner, then hint 4 on the lock made per call.
        // The same for a lock stored in the instance beside it.
        let both = ", `lost-writes process-owner local-lock`,\n`lost-writes process-owner instance-lock`"
        #expect(
            hints.contains(
                "## Hint 2: a lock whose owner is one increment\n*For:* `lost-writes process-owner`\(both)\n"
            )
        )
        #expect(hints.contains("## Hint 3: the call\n*For:* `lost-writes process-owner`\(both)\n"))
        // Hint 2 explains who owns each kind of lock and leaves the call's name to hint 3.
        let hint2 = hints.split(separator: "## Hint 3:").first?.split(separator: "## Hint 2:").last ?? ""
        #expect(hint2.contains("open file description") && !hint2.contains("lockDescription"))
        #expect(
            hints.contains(
                "\n*For:* `lost-writes instance-lock`, `lost-writes local-lock`, `lost-writes shared-owner`,"
                    + "\n`unguarded-map`, `lost-writes process-owner local-lock`, `lost-writes process-owner instance-lock`\n"
            )
        )
        #expect(
            hints.contains(
                "## Hint 5: lock the sequence, not each access\n*For:* `lost-writes overlap`, `lost-writes read-outside`\n"
            )
        )
        #expect(hints.contains("## Hint 6: lock a file that stays\n*For:* `lost-writes renamed-file`\n"))
    }
}

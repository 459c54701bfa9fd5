import Foundation
import Testing

/// Exercise 4's hint follows which lock let two increments into the read-modify-write together:
/// the harness watches the window between the read and the write, names the lock the code holds
/// there in one line, and adds its kind to the diagnosis; the hint marked with that kind is the
/// one the checker names. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// A planted file of exercise 4, the kind its failure is diagnosed with, the hint it must be
    /// sent to and what the overlap line says.
    struct LockCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var planted: Planted
        var diagnosis: String
        var hint: Int
        var says: String
    }

    @Test(
        "exercise 4's failures are sent to the hint for the lock that let two increments in",
        .timeLimit(.minutes(20)),
        arguments: [
            LockCase(
                testDescription: "the starter's record lock: the process-owner hint",
                planted: .file("Lessons/04-coordinator-locking/Exercise/Starter/FileCounter.swift"),
                diagnosis: "process-owner",
                hint: 1,
                says: "each holding `lockRecord`'s lock"
            ),
            LockCase(
                testDescription: "a lock stored in each instance: the per-instance hint",
                planted: .patch("Lessons/04-coordinator-locking/Exercise/WrongFixes/LockInTheInstance.patch"),
                diagnosis: "instance-lock",
                hint: 3,
                says: "the lock stored in its own FileCounter (`lock`)"
            ),
            LockCase(
                testDescription: "one lock file shared by every instance: the shared-owner hint",
                planted: .patch("Lessons/04-coordinator-locking/Exercise/WrongFixes/OneDescriptionForAll.patch"),
                diagnosis: "shared-owner",
                hint: 3,
                says: "each holding `lockDescription`'s lock"
            ),
            LockCase(
                testDescription: "the right lock taken around the read and the write apart: the sequence hint",
                planted: .patch("Lessons/04-coordinator-locking/Exercise/WrongFixes/LockReadAndWrite.patch"),
                diagnosis: "overlap",
                hint: 4,
                says: "does not cover the whole of it"
            ),
        ]
    )
    func exercise4HintFollowsTheLock(_ planted: LockCase) throws {
        let lines = try Self.check(exercise: 4, planted.planted, diagnosis: planted.diagnosis)
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(
            next?.hasPrefix(
                "Next: read hint \(planted.hint) of 4 in Lessons/04-coordinator-locking/Exercise/hints.md"
            ) == true,
            "\(lines)"
        )
        // The overlap line is wrapped: its words are checked in the joined text.
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.firstMatch(of: /[0-9,]+ increments? overlapped in the read-modify-write/) != nil, "\(lines)")
        #expect(text.contains(planted.says), "\(lines)")
    }

    @Test("exercise 4's hints are marked with the kinds of lock that send a participant to them")
    func exercise4HintsAreMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/04-coordinator-locking/Exercise/hints.md"),
            encoding: .utf8
        )
        #expect(hints.contains("## Hint 1: whom does the lock exclude?\n<!-- diagnosis: lost-writes process-owner -->"))
        #expect(hints.contains("<!-- diagnosis: lost-writes instance-lock shared-owner -->"))
        #expect(hints.contains("<!-- diagnosis: lost-writes overlap -->"))
    }
}

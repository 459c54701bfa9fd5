import Foundation
import Testing

/// Exercise 6's torn writer: two writers run alone, one paused between its two sets until the
/// other has finished, then one bounded snapshot. A writer that sets the items and the count in two
/// steps fails there whatever its reader does, and a reader that locks or retries its two looks
/// sends the participant to the writer's hint. In `ExerciseAdviceTests`, whose checks run one at a
/// time.
extension ExerciseAdviceTests {
    /// A planted file of exercise 6 (from its Exercise folder), the diagnosis and hint it must get,
    /// and what its writers-only line must say (a regular expression over the joined output).
    struct WriterCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var file: String
        var kind: String
        var hint: Int
        var writersLine: String
    }

    static let writersFail = #"FAIL\s+two writers at once leave one writer's whole version: "#

    @Test(
        "exercise 6: a writer that sets its two values apart fails with writers only, whatever the reader",
        .timeLimit(.minutes(20)),
        arguments: [
            WriterCase(
                testDescription: "a reader that retries until the count matches: it loops, reported as such",
                file: "WrongFixes/RetryingReader.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersFail + #"in trial 1 of 8, snapshot\(\) had not returned \d+ s after the "#
                    + #"writers finished; it returned only after the checker's own whole replace\(with:\)"#
            ),
            WriterCase(
                testDescription: "a lock around the reader's two looks only: torn states, the writer's hint",
                file: "WrongFixes/LockedReaderOnly.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersFail + #"8 of 8 trials left a state no replace\(with:\) wrote, e\.g\. "#
                    + #"count \d+, items \["#
            ),
            WriterCase(
                testDescription: "the starter: torn there too, but its reader takes two bare looks: hint 1",
                file: "Starter/Playlist.swift",
                kind: "inconsistencies",
                hint: 1,
                writersLine: writersFail + #"8 of 8 trials left a state no replace\(with:\) wrote"#
            ),
        ]
    )
    func exercise6TornWriter(_ planted: WriterCase) throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let path = exercise + planted.file
        let lines = try Self.check(
            exercise: 6,
            path.hasSuffix(".patch") ? .patch(path) : .file(path),
            diagnosis: planted.kind
        )
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains(try Regex(planted.writersLine)), "\(lines)")
        let readFromCode = "replace(with:) still sets them in two steps, and no reader can undo that"
        #expect(text.contains(readFromCode) == (planted.kind == "writer-two-sets"), "\(lines)")
        // A reader that loops is never left to hang the check: the run with readers is not started.
        #expect(
            text.contains("not run: readers racing writers") == planted.file.hasPrefix("WrongFixes/Retrying"),
            "\(lines)"
        )
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint \(planted.hint) of 5 in \(exercise)hints.md") == true, "\(lines)")
    }

    @Test("exercise 6's solution passes the writers-only check")
    func exercise6SolutionWriters() throws {
        let (status, text) = try Executable.capture(
            Self.root.appendingPathComponent("Scripts/check-exercise"),
            ["6", "--file", "Lessons/06-async-data-source/Exercise/Solution/Playlist.swift", "--expect", "pass"],
            in: Self.root,
            stderr: .merged
        )
        #expect(status == 0, "\(text)")
        let joined = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        #expect(joined.contains(#/ok\s+two writers at once leave one writer's whole version \(8 trials;/#), "\(text)")
    }
}

import Foundation
import Testing

/// What `Scripts/check-exercise` tells a participant after a FAIL: the outcomes a stress run saw,
/// the figures in the FAIL line, and the `Next:` line, which follows the failure that happened.
/// Each test checks a starter or a planted wrong fix of the repository through the real checker
/// (which builds the exercise's harness in release mode in `.build-exercise/`, shared by every
/// check: the suite runs one check at a time).
@Suite("a failed exercise check advises what its failure calls for", .serialized)
struct ExerciseAdviceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What to check: the file at a path, or the starter with a patch applied (paths from the root).
    enum Planted {
        case file(String)
        case patch(String)
    }

    /// Runs `Scripts/check-exercise exercise --file|--patch <path> --expect fail --expect-diagnosis
    /// kind`; its exit status and output lines.
    static func check(
        exercise: Int,
        _ planted: Planted,
        diagnosis kind: String
    ) throws -> (status: Int32, lines: [String]) {
        let (option, path) =
            switch planted {
            case .file(let path): ("--file", path)
            case .patch(let path): ("--patch", path)
            }
        let (status, text) = try Executable.capture(
            root.appendingPathComponent("Scripts/check-exercise"),
            [String(exercise), option, path, "--expect", "fail", "--expect-diagnosis", kind],
            in: root,
            stderr: .merged
        )
        return (status, text.split(separator: "\n").map(String.init))
    }

    @Test(
        "a retry that asks the referee again fails after the concurrent run, and Next says so",
        .timeLimit(.minutes(20))
    )
    func retryUntilUnchanged() throws {
        let result = try Self.check(
            exercise: 3,
            .patch("Lessons/03-actor-reentrancy/Exercise/WrongFixes/RetryUntilUnchanged.patch"),
            diagnosis: "concurrent"
        )
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        let failure = result.lines.first { $0.contains("FAIL  every concurrent add asked the referee once") }
        #expect(failure?.contains("8,000 adds asked") == true, "\(result.lines)")
        let next = result.lines.first { $0.hasPrefix("Next:") }
        #expect(next?.contains("passed the single-threaded checks") == true, "\(result.lines)")
        #expect(!result.lines.contains { $0.contains("functional checks run") })
    }

    @Test(
        "an atomic write without the barrier is sent to the barrier's hint",
        .timeLimit(.minutes(20))
    )
    func atomicWriteWithoutBarrier() throws {
        let result = try Self.check(
            exercise: 5,
            .patch("Lessons/05-persistent-store/Exercise/WrongFixes/AtomicWriteNoBarrier.patch"),
            diagnosis: "unordered-stores"
        )
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        let next = result.lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint 2 of 4 in Lessons/05-persistent-store/Exercise/hints.md") == true)
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/05-persistent-store/Exercise/hints.md"),
            encoding: .utf8
        )
        #expect(hints.contains("## Hint 2: the barrier\n<!-- diagnosis: unordered-stores lost-writes -->"))
    }

    @Test(
        "exercise 5's starter, unordered and torn, steps through the hints from the first",
        .timeLimit(.minutes(20))
    )
    func starterStepsFromTheFirstHint() throws {
        let result = try Self.check(
            exercise: 5,
            .file("Lessons/05-persistent-store/Exercise/Starter/DocumentStore.swift"),
            diagnosis: "inconsistencies"
        )
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        let next = result.lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint 1 of 4 in Lessons/05-persistent-store/Exercise/hints.md") == true)
    }

    @Test(
        "the starter's lost points list every outcome, or the most frequent and a count of the rest",
        .timeLimit(.minutes(20))
    )
    func starterOutcomes() throws {
        let result = try Self.check(
            exercise: 3,
            .file("Lessons/03-actor-reentrancy/Exercise/Starter/Scoreboard.swift"),
            diagnosis: "lost-writes"
        )
        #expect(result.status == 0, "\(result.lines.joined(separator: "\n"))")
        // "anomalies in 38 of 40 trials (8,000 operations, seed …)": the trials the outcomes add up to.
        let evidence = try #require(result.lines.first { $0.contains("anomalies in ") })
        let anomalous = try #require(
            evidence.firstMatch(of: /anomalies in ([0-9,]+) of/).flatMap { Int($0.1.replacing(",", with: "")) }
        )
        let rows = result.lines.compactMap { line in
            line.firstMatch(of: #/^ {8}([0-9,]+) trials?: /#).flatMap { Int($0.1.replacing(",", with: "")) }
        }
        let rest = result.lines.compactMap { line in
            line.firstMatch(of: #/^ {8}and ([0-9,]+) other outcomes in ([0-9,]+) trials?$/#).flatMap { match in
                Int(match.2.replacing(",", with: ""))
            }
        }
        #expect(!rows.isEmpty && rows.count + rest.count <= 6, "\(result.lines)")
        #expect(rows.reduce(0, +) + rest.reduce(0, +) == anomalous, "\(result.lines)")
        #expect(rest.count <= 1)
    }
}

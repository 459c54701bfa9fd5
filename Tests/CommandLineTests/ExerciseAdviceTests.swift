import Foundation
import Testing

/// What `Scripts/check-exercise` tells a participant after a FAIL: the outcomes a stress run saw,
/// the figures in the FAIL line, and the `Next:` line, which follows the failure that happened.
/// Each test checks a planted file kept in its own temporary folder, through the real checker
/// (which builds the exercise's harness in release mode in `.build-exercise/`, shared by every
/// check: the suite runs one check at a time).
@Suite("a failed exercise check advises what its failure calls for", .serialized)
struct ExerciseAdviceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `Scripts/check-exercise exercise --file <source> --expect fail --expect-diagnosis kind`
    /// on `source`, written to a file named `name` in a temporary folder; its exit status and
    /// output lines.
    static func check(
        exercise: Int,
        name: String,
        source: String,
        diagnosis kind: String
    ) throws -> (status: Int32, lines: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-exercise-advice-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try Data(source.utf8).write(to: file)
        let (status, text) = try Executable.capture(
            root.appendingPathComponent("Scripts/check-exercise"),
            [String(exercise), "--file", file.path, "--expect", "fail", "--expect-diagnosis", kind],
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
            name: "Scoreboard.swift",
            source: """
                // Retries until the score did not change during the referee's await: no point is
                // lost, but an add that retries asks the referee again.
                import RaceLab

                actor Scoreboard {
                    private var scores: [String: Int] = [:]
                    init() {}
                    func add(_ points: Int, to player: String) async {
                        while true {
                            let current = scores[player, default: 0]
                            let approved = await Referee.approve(points)
                            if scores[player, default: 0] == current {
                                scores[player] = current + approved
                                return
                            }
                        }
                    }
                    func score(of player: String) -> Int { scores[player, default: 0] }
                    var total: Int { scores.values.reduce(0, +) }
                }

                """,
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
            name: "DocumentStore.swift",
            source: """
                // Writes atomically (temporary file, then rename) on a plain `queue.sync`: every reader
                // finds a whole file, yet nothing orders the stores.
                import Foundation
                import RaceLab

                final class DocumentStore: @unchecked Sendable {
                    let folder: URL
                    private let queue = DispatchQueue(label: "exercise.document-store", attributes: .concurrent)

                    init(folder: URL) {
                        self.folder = folder
                    }

                    @inline(never)
                    func store(_ data: Data, as name: String) throws {
                        try queue.sync {
                            try data.write(to: folder.appendingPathComponent(name), options: .atomic)
                        }
                    }

                    func load(_ name: String) throws -> Data? {
                        try queue.sync {
                            let url = folder.appendingPathComponent(name)
                            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
                            return try Data(contentsOf: url)
                        }
                    }
                }

                """,
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
        let starter = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Lessons/05-persistent-store/Exercise/Starter/DocumentStore.swift"
            ),
            encoding: .utf8
        )
        let result = try Self.check(
            exercise: 5,
            name: "DocumentStore.swift",
            source: starter,
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
        let starter = try String(
            contentsOf: Self.root.appendingPathComponent(
                "Lessons/03-actor-reentrancy/Exercise/Starter/Scoreboard.swift"
            ),
            encoding: .utf8
        )
        let result = try Self.check(exercise: 3, name: "Scoreboard.swift", source: starter, diagnosis: "lost-writes")
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

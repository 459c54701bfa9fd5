import Foundation
import RaceLab
import Testing

/// `racelab explore --jobs`: worker processes search parts of the tree, and the report is the one
/// a single job makes.
@Suite("explore --jobs")
struct ParallelExploreCommandLineTests {
    /// The JSON document without what depends on the clock.
    static func withoutTimings(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var kept: [String: Any] = [:]
            for (key, item) in object {
                let name = key.lowercased()
                if ["second", "timing", "elapsed", "perschedule"].contains(where: name.contains) { continue }
                kept[key] = withoutTimings(item)
            }
            return kept
        }
        if let array = value as? [Any] { return array.map(withoutTimings) }
        return value
    }

    /// `arguments`' JSON document without timings; workers start at once, so that the small
    /// searches of the lessons at 2 threads are split among processes too.
    static func document(_ arguments: [String]) async throws -> (status: Int32, text: String) {
        let output = try await Executable.racelab.run(arguments, environment: ["RACELAB_WORKER_DELAY": "0"])
        let parsed = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        let normalized = try JSONSerialization.data(
            withJSONObject: withoutTimings(parsed),
            options: [.sortedKeys, .prettyPrinted]
        )
        return (output.status, String(decoding: normalized, as: UTF8.self))
    }

    @Test(
        "each lesson at 2 threads (lesson 2 under TSan): the same counts, verdicts and failures with 1 and 2 jobs",
        arguments: ["dpor", "none"]
    )
    func sameReport(reduction: String) async throws {
        // Under TSan one lesson's search exercises the workers and their coordinator as every
        // lesson's does; make test compares them all.
        let lessons = ThreadSanitizer.isActive ? "2" : "all"
        let arguments = [
            "explore", lessons, "--threads", "2", "--reduction", reduction, "--preemptions", "1", "--json",
        ]
        let one = try await Self.document(arguments + ["--jobs", "1"])
        let two = try await Self.document(arguments + ["--jobs", "2"])
        #expect(one.status == two.status)
        #expect(one.text == two.text)
        #expect(one.text.contains("\"schedules\""))
    }

    @Test("a bad job count, and --jobs with a strategy or a replay that ignores it, are one line and exit 2")
    func refused() async throws {
        for arguments in [
            ["explore", "1", "--jobs", "0"],
            ["explore", "1", "--jobs", "two"],
            ["explore", "1", "--strategy", "pct", "--jobs", "2"],
        ] {
            let output = try await Executable.racelab.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            let errors = output.stderr.split(separator: "\n").filter { $0.contains("error:") }
            #expect(errors.count == 1 && errors[0].contains("--jobs"), "\(arguments): \(output.stderr)")
        }
    }
}

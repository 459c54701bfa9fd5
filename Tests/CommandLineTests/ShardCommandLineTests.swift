import Foundation
import Testing

/// `racelab explore --shard I/N --output FILE` and `racelab merge`: shards 1...N of a search, merged,
/// report what the unsharded search reports; files that are not shards 1...N of one search are
/// refused, with one line and exit 2.
@Suite("explore --shard and merge")
struct ShardCommandLineTests {
    static let variants = ["buggy", "fixed"]

    /// `explore 1 --variant <variant> --threads 2` and `arguments`.
    static func explore(_ variant: String, _ arguments: [String]) async throws -> Executable.Output {
        try await Executable.racelab.run(["explore", "1", "--variant", variant, "--threads", "2"] + arguments)
    }

    /// The JSON document of `output` without what depends on the clock or says it was merged.
    static func normalized(_ output: Executable.Output) throws -> String {
        func strip(_ value: Any) -> Any {
            if let object = value as? [String: Any] {
                return object.filter { $0.key != "mergedShards" }.mapValues(strip)
            }
            if let array = value as? [Any] { return array.map(strip) }
            return value
        }
        let parsed = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8))
        let kept = ParallelExploreCommandLineTests.withoutTimings(strip(parsed))
        let data = try JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes shards 1...`count` of `variant` into `folder`; their paths.
    static func shards(_ variant: String, count: Int, in folder: URL) async throws -> [String] {
        var paths: [String] = []
        for index in 1...count {
            let path = folder.appendingPathComponent("\(variant)-\(index)-of-\(count).json").path
            let output = try await explore(variant, ["--shard", "\(index)/\(count)", "--output", path])
            #expect(output.status == 0, "\(variant) \(index)/\(count): \(output.stderr)")
            #expect(output.stdout.split(separator: "\n").count == 1 && output.stdout.contains(path))
            paths.append(path)
        }
        return paths
    }

    @Test("shards 1...N merged report what the unsharded search reports, for N = 1, 2, 3")
    func mergedEqualsUnsharded() async throws {
        try await Executable.withTemporaryFolder("racelab-shards") { folder in
            for variant in Self.variants {
                let whole = try await Self.explore(variant, ["--json"])
                let expected = try Self.normalized(whole)
                #expect(expected.contains("\"schedules\""))
                // The buggy variant's first failing schedule, with its replay string, is compared too.
                #expect(expected.contains("\"replay\"") == (variant == "buggy"))
                let wholeText = try await Self.explore(variant, [])
                for count in 1...3 {
                    let files = try await Self.shards(variant, count: count, in: folder)
                    // In any order.
                    let merged = try await Executable.racelab.run(["merge", "--json"] + files.reversed())
                    #expect(merged.status == whole.status, "\(variant) in \(count)")
                    #expect(try Self.normalized(merged) == expected, "\(variant) in \(count)")
                    let text = try await Executable.racelab.run(["merge"] + files)
                    #expect(text.status == wholeText.status)
                    // The same lines but the one with the time, which says it is the shards' sum.
                    let timeless = { (text: String) in
                        text.split(separator: "\n").filter { !$0.contains(" s") && !$0.contains("times of") }
                    }
                    #expect(timeless(text.stdout) == timeless(wholeText.stdout), "\(variant) in \(count)")
                    let words = text.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    #expect(words.contains("(the sum of the wall times of \(count) shard"))
                }
            }
        }
    }

    @Test("files that are not shards 1...N of one search are refused: one line, exit 2")
    func refused() async throws {
        try await Executable.withTemporaryFolder("racelab-shards") { folder in
            let buggy = try await Self.shards("buggy", count: 3, in: folder)
            let fixed = try await Self.shards("fixed", count: 3, in: folder)
            let garbage = folder.appendingPathComponent("garbage.json").path
            try Data("{\"not\": \"a shard\"}".utf8).write(to: URL(fileURLWithPath: garbage))
            let otherCount = try await Self.shards("buggy", count: 2, in: folder)
            for (files, says) in [
                ([buggy[0], buggy[1]], "missing"),
                ([buggy[0], buggy[1], buggy[1], buggy[2]], "twice"),
                ([buggy[0], fixed[1], buggy[2]], "variant fixed"),
                ([buggy[0], buggy[1], garbage], "not a result file"),
                ([buggy[0], otherCount[1], buggy[2]], "a shard of 3"),
                ([buggy[0], buggy[1], folder.appendingPathComponent("absent.json").path], "cannot read"),
            ] {
                let output = try await Executable.racelab.run(["merge"] + files)
                #expect(output.status == 2, "\(says)")
                #expect(output.stdout.isEmpty, "\(says)")
                let errors = output.stderr.split(separator: "\n").filter { $0.contains("error:") }
                #expect(errors.count == 1 && errors[0].contains(says), "\(says): \(output.stderr)")
            }
        }
    }

    @Test("a bad shard, or one that cannot shard, is one line and exit 2, and writes nothing")
    func badShard() async throws {
        try await Executable.withTemporaryFolder("racelab-shards") { folder in
            let path = folder.appendingPathComponent("shard.json").path
            for (arguments, says) in [
                (["--variant", "buggy", "--shard", "0/3"], "--shard must be"),
                (["--variant", "buggy", "--shard", "4/3"], "--shard must be"),
                (["--variant", "buggy", "--shard", "1/65"], "--shard must be"),
                (["--variant", "buggy", "--shard", "one/3"], "--shard must be"),
                (["--shard", "1/3"], "--variant"),
                (["--variant", "buggy", "--shard", "1/3", "--reduction", "states"], "states"),
                (["--variant", "buggy", "--shard", "1/3", "--strategy", "random"], "dfs"),
                (["--variant", "buggy", "--shard", "1/3", "--replay", "2:0.1@e6afab"], "--replay"),
                (["--variant", "actor", "--shard", "1/3"], "async"),
            ] {
                let output = try await Executable.racelab.run(["explore", "1"] + arguments + ["--output", path])
                #expect(output.status == 2, "\(arguments)")
                let errors = output.stderr.split(separator: "\n").filter { $0.contains("error:") }
                #expect(errors.count == 1 && errors[0].contains(says), "\(arguments): \(output.stderr)")
                #expect(!FileManager.default.fileExists(atPath: path), "\(arguments)")
            }
        }
    }
}

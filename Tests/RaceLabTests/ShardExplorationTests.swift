import Foundation
import Testing

@testable import RaceLab

/// A search run as shards 1...N, each deriving the tasks alone, and merged: the report must be the
/// sequential one.
@Suite("Shards merged report what the sequential search reports")
struct ShardExplorationTests {
    @Test(
        "random programs: shards 1...N merged equal the sequential search for N = 1, 2, 3",
        arguments: [ExplorationOptions.Reduction.none, .dpor]
    )
    func randomPrograms(reduction: ExplorationOptions.Reduction) async throws {
        // Under TSan a third of them, as the parallel search's test does.
        let count = ThreadSanitizer.isActive ? 4 : 12
        try await ParallelExplorationTests.compareRandomPrograms(count, reduction: reduction) {
            _,
            exploration,
            options in
            try await onOwnThread { () throws -> [String] in
                let sequential = ParallelExplorationTests.Summary(try Explorer.explore(exploration, options: options))
                var found: [String] = []
                for shards in 1...3 {
                    var results: [ShardResult] = []
                    for shard in (1...shards).reversed() {
                        let result = try Explorer.exploreShard(
                            exploration,
                            options: options,
                            shard: shard,
                            of: shards,
                            splitDepth: 2
                        )
                        // Through JSON, as the result files carry them.
                        let text = try JSONText.encode(result, pretty: false)
                        results.append(try JSONDecoder().decode(ShardResult.self, from: Data(text.utf8)))
                    }
                    let merged = ParallelExplorationTests.Summary(try Explorer.merge(exploration, shards: results))
                    if merged != sequential { found.append("\(shards) shards: \(merged)\n  sequential: \(sequential)") }
                }
                return found
            }
        }
    }

    @Test("a missing, repeated or foreign shard is refused")
    func badMerges() async throws {
        let seed = SplitMix64.mix(0x5eed)
        let exploration = FuzzProgram(seed: seed).exploration(recording: FinalStates(), failingWhen: { _ in false })
        let options = ExplorationOptions(reduction: .none, preemptions: 2, schedules: 400)
        try await onOwnThread { () throws in
            let one = try Explorer.exploreShard(exploration, options: options, shard: 1, of: 2, splitDepth: 2)
            let two = try Explorer.exploreShard(exploration, options: options, shard: 2, of: 2, splitDepth: 2)
            #expect(throws: ShardMergeRefusal.self) { try Explorer.merge(exploration, shards: [one]) }
            #expect(throws: ShardMergeRefusal.self) { try Explorer.merge(exploration, shards: [one, one]) }
            var other = two
            other.fingerprint = "another program"
            #expect(throws: ShardMergeRefusal.self) { try Explorer.merge(exploration, shards: [one, other]) }
            _ = try Explorer.merge(exploration, shards: [two, one])
        }
    }
}

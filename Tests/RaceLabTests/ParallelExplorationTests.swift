import Foundation
import Testing

@testable import RaceLab

/// A parallel search's merge (`ParallelExploration`) against the sequential search: the tasks run
/// in this process in shuffled orders, split at depths 1 to 4, and the report must be the one a
/// single job makes, whatever the order and the depth.
@Suite("A search split into tasks reports what the sequential search reports")
struct ParallelExplorationTests {
    /// What a report says that must not depend on the jobs (everything but timings): each field
    /// named once, for the comparison and for the message that shows a difference.
    struct Summary: Equatable, CustomStringConvertible {
        static var fields: [(name: String, value: PartialKeyPath<ExplorationReport>)] {
            [
                ("schedules", \.schedules),
                ("exhaustive", \.exhaustive),
                ("traces", \.tracesCovered),
                ("failing", \.failingSchedules),
                ("first failing", \.firstFailingSchedule),
                ("shortest failure", \.failure?.schedule.replayString),
                ("its outcome", \.failure?.outcome.summary),
                ("errors", \.errorSchedules),
                ("unfinished", \.unfinishedSchedules),
                ("step bound", \.stepBound),
                ("warning", \.warning),
                ("stopped after failure", \.stoppedAfterFailure),
            ]
        }

        /// Each field's value as printed, in the order of `fields`.
        var values: [String]

        init(_ report: ExplorationReport) {
            values = Self.fields.map { String(describing: report[keyPath: $0.value]) }
        }

        var description: String {
            zip(Self.fields, values).map { "\($0.name) \($1)" }.joined(separator: ", ")
        }
    }

    /// Every difference between the sequential search of `exploration` and its split searches.
    ///
    /// On a thread of its own: the explorer blocks its caller, which must not be a thread of the
    /// cooperative pool that async explorations run on.
    static func differences(
        _ exploration: Exploration,
        _ options: ExplorationOptions,
        seed: UInt64
    ) async throws -> [String] {
        try await onOwnThread { try splitDifferences(exploration, options, seed: seed) }
    }

    static func splitDifferences(
        _ exploration: Exploration,
        _ options: ExplorationOptions,
        seed: UInt64
    ) throws
        -> [String]
    {
        let sequential = Summary(try Explorer.explore(exploration, options: options))
        var found: [String] = []
        for depth in 1...4 {
            var random = SplitMix64(seed: seed &+ UInt64(depth))
            let split = try Explorer.explore(exploration, options: options, splitDepth: depth) { count in
                Int(random.next() % UInt64(count))
            }
            let summary = Summary(split)
            if summary != sequential {
                found.append("split at \(depth): \(summary)\n  sequential: \(sequential)")
            }
        }
        return found
    }

    /// Searches random programs `0..<count` with `reduction` and records an issue for each one
    /// `differences` finds a difference in. A program's invariant fails on about one final state in
    /// five; some searches are bounded by the schedule limit or stopped after a failure: where the
    /// search stops must not depend on the split either.
    static func compareRandomPrograms(
        _ count: Int,
        reduction: ExplorationOptions.Reduction,
        sourceLocation: SourceLocation = #_sourceLocation,
        differences: (_ seed: UInt64, Exploration, ExplorationOptions) async throws -> [String]
    ) async throws {
        var compared = 0
        for index in 0..<count {
            let seed = SplitMix64.mix(UInt64(index) &+ 0x5eed)
            let pick = seed % 5
            let fails: @Sendable (String) -> Bool = { DifferentialFuzzTests.stableHash($0) % 5 == pick }
            let exploration = FuzzProgram(seed: seed).exploration(recording: FinalStates(), failingWhen: fails)
            var options = ExplorationOptions(
                reduction: reduction,
                preemptions: DifferentialFuzzTests.preemptions(for: seed),
                schedules: index % 4 == 1 ? 7 : 400
            )
            if index % 4 == 2 { options.schedulesAfterFailure = 3 }
            let found = try await differences(seed, exploration, options)
            compared += 1
            if !found.isEmpty {
                Issue.record(
                    "program 0x\(String(seed, radix: 16)) with \(reduction): \(found.joined(separator: "\n"))",
                    sourceLocation: sourceLocation
                )
            }
        }
        #expect(compared == count, sourceLocation: sourceLocation)
    }

    @Test(
        "random programs: the same counts, traces, first failure and shortest failure at every split",
        arguments: [ExplorationOptions.Reduction.none, .dpor]
    )
    func randomPrograms(reduction: ExplorationOptions.Reduction) async throws {
        // Under TSan a quarter of them: the split search's threads are the same, each program costs
        // several times more.
        let count = ThreadSanitizer.isActive ? 10 : 40
        try await Self.compareRandomPrograms(count, reduction: reduction) { seed, exploration, options in
            try await Self.differences(exploration, options, seed: seed)
        }
    }

    @Test("counters lost and kept, a deadlock, independent steps: the same report at every split")
    func knownPrograms() async throws {
        let programs: [(String, Exploration)] = [
            ("lost update", ExplorerTests.lostUpdate),
            ("locked increment", ExplorerTests.lockedIncrement),
            ("lock order", ExplorerTests.lockOrder),
            ("independent steps", ExplorerTests.independent(steps: 3, threads: 3)),
        ]
        for (name, exploration) in programs {
            for reduction in [ExplorationOptions.Reduction.none, .dpor] {
                for threads in [2, 3] {
                    let options = ExplorationOptions(reduction: reduction, threads: threads)
                    let found = try await Self.differences(exploration, options, seed: 7)
                    #expect(
                        found.isEmpty,
                        "\(name), \(reduction), \(threads) threads: \(found.joined(separator: "\n"))"
                    )
                }
            }
        }
    }
}

import Foundation
import RaceLab
import Testing

/// Scenarios whose outcome is known before they run.
enum Synthetic {
    /// Skips every iteration whose index is a multiple of `period`: loses exactly
    /// `ceil(iterations / period)` writes per trial, whatever the interleaving.
    static func dropping(every period: Int) -> Variant {
        Variant.counting(
            name: "drops-every-\(period)",
            kind: .buggy,
            summary: "skips every \(period)th write",
            operation: { counter, iteration in if iteration.index % period != 0 { counter.withLockedValue { $0 += 1 } }
            }
        )
    }

    static let clean = Variant.counting(name: "clean", kind: .fixed, summary: "every iteration writes once")
}

extension StressRunner.Options {
    static func trials(_ trials: Int, iterations: Int, noise: Bool = true, seed: UInt64 = 42) -> Self {
        .init(workload: Workload(trials: trials, iterations: iterations), seed: seed, noise: noise)
    }
}

extension Explorer {
    /// How many of `times` replays of `failure`'s schedule end as it did. A replay refused (the
    /// program is not deterministic) counts as not reproduced.
    static func reproductions(
        of failure: ExecutionResult,
        in exploration: Exploration,
        options: ExplorationOptions,
        times: Int = 100
    ) async -> Int {
        var reproduced = 0
        for _ in 0..<times {
            if let replay = try? await replay(exploration, schedule: failure.schedule, options: options),
                replay.outcome == failure.outcome
            {
                reproduced += 1
            }
        }
        return reproduced
    }
}

extension Explorer {
    /// Explores `exploration` with `options` and expects a search that was not abandoned, whose
    /// failure ends as `outcome` and replays 100 of 100 times; returns that failure.
    static func expectFailureThatReplays(
        _ exploration: Exploration,
        options: ExplorationOptions,
        outcome: ExecutionOutcome,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ExecutionResult {
        let report = try await explore(exploration, options: options)
        #expect(report.abandoned == nil, sourceLocation: sourceLocation)
        let failure = try #require(report.failure, sourceLocation: sourceLocation)
        #expect(failure.outcome == outcome, sourceLocation: sourceLocation)
        #expect(
            await reproductions(of: failure, in: exploration, options: options) == 100,
            sourceLocation: sourceLocation
        )
        return failure
    }

    /// Explores `exploration` with `options` and expects a search to its end, of more than one
    /// schedule, with none failing: what a fixed twin must show. Returns the report.
    @discardableResult
    static func expectExhaustiveClean(
        _ exploration: Exploration,
        options: ExplorationOptions,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ExplorationReport {
        let report = try await explore(exploration, options: options)
        #expect(report.exhaustive, sourceLocation: sourceLocation)
        #expect(report.abandoned == nil, sourceLocation: sourceLocation)
        #expect(report.schedules > 1, sourceLocation: sourceLocation)
        #expect(report.failingSchedules == 0, sourceLocation: sourceLocation)
        return report
    }
}

/// Runs `check` expecting it to record a known issue at line `line` of the test's file whose text
/// says every one of `fragments`: how a test reads the message a failing RaceLabTesting check gives.
func expectKnownIssue(
    at line: Int,
    saying fragments: [String],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ check: () async -> Void
) async {
    await withKnownIssue(sourceLocation: sourceLocation) {
        await check()
    } matching: { issue in
        let text = issue.comments.map(\.rawValue).joined()
        return issue.sourceLocation?.line == line && fragments.allSatisfy { text.contains($0) }
    }
}

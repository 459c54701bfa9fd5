import Foundation
import RaceLab

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

import Foundation
import RaceLab

/// Scenarios whose outcome is known before they run.
enum Synthetic {
    /// Skips every iteration whose index is a multiple of `period`: loses exactly
    /// `ceil(iterations / period)` writes per trial, whatever the interleaving.
    static func dropping(every period: Int) -> Variant {
        Variant(
            name: "drops-every-\(period)",
            kind: .buggy,
            summary: "skips every \(period)th write",
            makeState: { LockedValueBox(0) },
            operation: { counter, iteration in if iteration.index % period != 0 { counter.withLockedValue { $0 += 1 } }
            },
            check: { counter, trial in .kept(counter.value, of: trial.iterations) }
        )
    }

    static let clean = Variant(
        name: "clean",
        kind: .fixed,
        summary: "every iteration writes once",
        makeState: { LockedValueBox(0) },
        operation: { counter, _ in counter.withLockedValue { $0 += 1 } },
        check: { counter, trial in .kept(counter.value, of: trial.iterations) }
    )
}

extension StressRunner.Options {
    static func trials(_ trials: Int, iterations: Int, noise: Bool = true, seed: UInt64 = 42) -> Self {
        .init(workload: Workload(trials: trials, iterations: iterations), seed: seed, noise: noise)
    }
}

import Foundation
import RaceLab

/// A counter behind a lock, so that any loss a test sees is the one the variant chose.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Scenarios whose outcome is known before they run.
enum Synthetic {
    /// Skips every iteration whose index is a multiple of `period`: loses exactly
    /// `ceil(iterations / period)` writes per trial, whatever the interleaving.
    static func dropping(every period: Int) -> Variant {
        Variant(
            name: "drops-every-\(period)",
            kind: .buggy,
            summary: "skips every \(period)th write",
            makeState: { LockedCounter() },
            operation: { counter, iteration in if iteration.index % period != 0 { counter.increment() } },
            check: { counter, trial in .kept(counter.count, of: trial.iterations) }
        )
    }

    static let clean = Variant(
        name: "clean",
        kind: .fixed,
        summary: "every iteration writes once",
        makeState: { LockedCounter() },
        operation: { counter, _ in counter.increment() },
        check: { counter, trial in .kept(counter.count, of: trial.iterations) }
    )
}

extension StressRunner.Options {
    static func trials(_ trials: Int, iterations: Int, noise: Bool = true, seed: UInt64 = 42) -> Self {
        .init(workload: Workload(trials: trials, iterations: iterations), seed: seed, noise: noise)
    }
}

import Dispatch
import Foundation
import RaceLab
import SubscriptRace

/// How much the runner costs: lesson 1's fixed variant through `StressRunner` (noise off) against a
/// bare `concurrentPerform` loop doing the same stores and the same count check per trial.
struct HarnessOverhead {
    let trials: Int
    let iterations: Int
    let repetitions: Int

    struct Result {
        /// Operations per second, median over repetitions.
        let runner: Sample
        let bare: Sample
        /// Runner wall time over bare wall time, per repetition (the two measured back to back, so
        /// that a change in the machine's load between repetitions hits both): 1.0 means no overhead.
        let ratios: Sample
        var ratio: Double { ratios.median }
    }

    func run() -> Result {
        let variant = SubscriptRaceLesson.lesson.variant(named: "fixed")!
        let options = StressRunner.Options(
            workload: Workload(trials: trials, iterations: iterations),
            seed: 1,
            noise: false
        )
        var runner: [Double] = []
        var bare: [Double] = []
        for _ in 0..<repetitions {
            let report = StressRunner.run(variant, options: options)
            precondition(report.verdict == .clean, "the fixed variant lost writes while being benchmarked")
            runner.append(report.operationsPerSecond)
            bare.append(bareLoop())
        }
        return Result(runner: Sample(runner), bare: Sample(bare), ratios: Sample(zip(bare, runner).map { $0 / $1 }))
    }

    /// Operations per second of the same work with nothing around it.
    private func bareLoop() -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let payload = Data([0x52, 0x4C])
        for _ in 0..<trials {
            let storage = FixedStorage()
            DispatchQueue.concurrentPerform(iterations: iterations) { index in
                storage.store(payload, forIdentifier: "item-\(index)")
            }
            precondition(storage.numberOfItems == iterations, "the fixed store lost writes")
        }
        let seconds = (clock.now - start).nanoseconds / 1e9
        return Double(trials * iterations) / seconds
    }
}

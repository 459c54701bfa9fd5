import Testing

@testable import RaceLab

/// The pieces of a run continued after a crash: a runner that starts at a later trial, and the sums
/// of what each child reported.
@Suite("A run continued after a crash: trials numbered as in the whole run, reports summed")
struct ContinuedRunTests {
    @Test("a run from trial 3 of 5 runs 3 trials and numbers them 3 to 5")
    func firstTrial() {
        // Trial 4 (index 3), and only it, finds an inconsistency.
        let variant = Variant.counting(
            name: "fourth-trial-inconsistent",
            kind: .buggy,
            operation: { counter, iteration in
                counter.withLockedValue { $0 += 1 }
                if iteration.index == 0 && iteration.trial == 3 { iteration.recordInconsistency("trial 4") }
            }
        )
        var options = StressRunner.Options(workload: Workload(trials: 5, iterations: 8), seed: 1, noise: false)
        options.firstTrial = 2
        var done: [Int] = []
        let report = StressRunner.run(variant, options: options, afterTrial: { done.append($0) })
        #expect(report.trials == 3)
        #expect(done == [1, 2, 3])
        #expect(report.anomalousTrials == 1)
        #expect(report.firstAnomalousTrial == 4)
        #expect(report.operations == 3 * 8)
    }

    @Test("histograms of two children add up per outcome, in outcome order, over all their trials")
    func mergedHistograms() {
        func row(_ outcome: String, _ samples: Int, _ expectation: HistogramRow.Expectation) -> HistogramRow {
            HistogramRow(outcome: outcome, samples: samples, frequency: 0, expectation: expectation, meaning: outcome)
        }
        let earlier = [row("10/10", 2, .acceptable), row("8/10", 1, .forbidden)]
        let later = [row("9/10", 1, .forbidden), row("8/10", 2, .forbidden), row("error", 1, .error)]
        let merged = IsolatedRun.ContinuedRun.merged(earlier, later, trials: 7)
        let outcomes: [String] = ["10/10", "9/10", "8/10", "error"]
        let samples: [Int] = [2, 1, 3, 1]
        let frequencies: [Double] = samples.map { Double($0) / 7 }
        #expect(merged.map(\.outcome) == outcomes)
        #expect(merged.map(\.samples) == samples)
        #expect(merged.map(\.frequency) == frequencies)
    }

    @Test("crashed trials are listed as a reader says them")
    func trialList() {
        #expect(IsolatedRun.ContinuedRun.trialList([3]) == "trial 3")
        #expect(IsolatedRun.ContinuedRun.trialList([3, 9]) == "trials 3 and 9")
        #expect(IsolatedRun.ContinuedRun.trialList([1, 2, 1_005]) == "trials 1, 2 and 1,005")
    }
}

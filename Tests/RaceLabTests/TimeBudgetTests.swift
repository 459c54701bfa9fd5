import Foundation
import Testing

@testable import RaceLab

@Suite("A time budget bounds a slow variant's run, and the report says how many trials ran")
struct TimeBudgetTests {
    /// Each trial sleeps 20 ms in its check: 1,000 trials would take 20 s; the budget allows ~5.
    static let slow = Variant.counting(
        name: "slow",
        kind: .fixed,
        summary: "every check takes 20 ms",
        check: { counter, trial in
            try await Task.sleep(for: .milliseconds(20))
            return .kept(counter.value, of: trial.iterations)
        }
    )

    @Test("no trial starts after the budget; at least one runs; the verdict covers the trials run")
    func budgetStopsTrials() async {
        var options = StressRunner.Options.trials(1_000, iterations: 4)
        options.timeBudget = 0.1
        let report = await StressRunner.run(Self.slow, options: options)
        #expect(report.trials >= 1)
        #expect(report.trials < 1_000)
        #expect(report.operations == report.trials * 4)
        #expect(report.verdict == .clean)
        #expect(
            report.verdictReason
                == (report.trials == 1 ? "no anomaly in its 1 trial" : "no anomaly in any of \(report.trials) trials")
        )
    }

    @Test("a budget smaller than one trial still runs one")
    func oneTrialAtLeast() async {
        var options = StressRunner.Options.trials(50, iterations: 4)
        options.timeBudget = 0.000_001
        #expect(await StressRunner.run(Self.slow, options: options).trials == 1)
    }

    @Test("without a budget every trial runs")
    func noBudget() async {
        #expect(await StressRunner.run(Self.slow, options: .trials(3, iterations: 4)).trials == 3)
    }
}

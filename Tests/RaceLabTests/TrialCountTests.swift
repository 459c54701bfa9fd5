import Testing

@testable import RaceLab

@Suite("A run of one trial says trial, not trials")
struct TrialCountTests {
    static func clean(trials: Int) -> VariantReport {
        var report = VariantReport.stub(verdict: .clean)
        report.trials = trials
        report.iterations = 10_000
        report.operations = trials * 10_000
        return report
    }

    @Test("the compact line and the verbose block of a one-trial run", arguments: [false, true])
    func oneTrial(verbose: Bool) {
        let text = TextReport(verbose: verbose).variant(Self.clean(trials: 1))
        #expect(text.contains("no anomaly in 1 trial") || text.contains("1 trial × 10,000 iterations"), "\(text)")
        #expect(!text.contains("1 trials"), "\(text)")
    }

    @Test("more trials keep the plural")
    func manyTrials() {
        #expect(TextReport(verbose: false).variant(Self.clean(trials: 2)).contains("no anomaly in 2 trials"))
        #expect(TextReport(verbose: true).variant(Self.clean(trials: 2)).contains("2 trials × 10,000 iterations"))
        #expect(trialCount(1_000) == "1,000 trials")
        #expect(trialCount(1) == "1 trial")
    }

    @Test("the verdict's reason of a one-trial run")
    func reason() {
        #expect(StressRunner.reason(for: .clean, anomalousTrials: 0, trials: 1) == "no anomaly in its 1 trial")
        #expect(
            StressRunner.reason(for: .notReproduced, anomalousTrials: 0, trials: 1)
                == "the bug did not show in its 1 trial"
        )
        #expect(StressRunner.reason(for: .clean, anomalousTrials: 0, trials: 3) == "no anomaly in any of 3 trials")
    }
}

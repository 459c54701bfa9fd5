import Testing

@testable import RaceLab

@Suite("Detection rates carry honest confidence intervals")
struct DetectionRateTests {
    @Test(
        "Wilson intervals match published values",
        arguments: [
            (0, 10, 0.0, 0.2775),
            (5, 10, 0.2366, 0.7634),
            (10, 10, 0.7225, 1.0),
            (1, 200, 0.0009, 0.0277),
        ]
    )
    func wilson(successes: Int, trials: Int, lower: Double, upper: Double) {
        let interval = DetectionRate.wilson(successes: successes, trials: trials)
        #expect(abs(interval[0] - lower) < 0.0005)
        #expect(abs(interval[1] - upper) < 0.0005)
    }

    @Test("the runner records the first anomalous trial")
    func firstAnomaly() async {
        let variant = Variant.counting(
            name: "third",
            kind: .buggy,
            operation: { counter, iteration in
                if !(iteration.trial == 2 && iteration.index == 0) { counter.withLockedValue { $0 += 1 } }
            }
        )
        let report = await StressRunner.run(variant, options: .trials(5, iterations: 10))
        #expect(report.firstAnomalousTrial == 3)
        #expect(report.anomalousTrials == 1)
    }
}

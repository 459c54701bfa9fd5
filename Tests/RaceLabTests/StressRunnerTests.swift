import Foundation
import Testing

@testable import RaceLab

@Suite("The stress runner counts exactly what a scenario lost")
struct StressRunnerTests {
    @Test("a scenario that drops every fourth write loses exactly that many", arguments: [1, 4, 7])
    func deterministicLoss(period: Int) async {
        let iterations = 1_000
        let trials = 12
        let report = await StressRunner.run(
            Synthetic.dropping(every: period),
            options: .trials(trials, iterations: iterations)
        )
        let lostPerTrial = (iterations + period - 1) / period
        #expect(report.lostWrites == trials * lostPerTrial)
        #expect(report.anomalousTrials == trials)
        #expect(report.operations == trials * iterations)
        #expect(report.verdict == .reproduced)
        #expect(report.histogram.map(\.samples).reduce(0, +) == trials)
    }

    @Test("a correct scenario is clean over 10^5 operations, with and without noise", arguments: [true, false])
    func cleanScenario(noise: Bool) async {
        let report = await StressRunner.run(Synthetic.clean, options: .trials(100, iterations: 1_000, noise: noise))
        #expect(report.operations == 100_000)
        #expect(report.anomalousTrials == 0)
        #expect(report.lostWrites == 0)
        #expect(report.verdict == .clean)
        #expect(
            report.histogram == [
                HistogramRow(
                    outcome: "1,000/1,000",
                    samples: 100,
                    frequency: 1,
                    expectation: .acceptable,
                    meaning: "all writes kept"
                )
            ]
        )
    }

    /// A buggy variant whose iterations all write (no write is lost), and then run `record`, which
    /// records the inconsistencies under test.
    static func recording(_ name: String, _ record: @escaping @Sendable (Iteration) -> Void) -> Variant {
        Variant.counting(
            name: name,
            kind: .buggy,
            operation: { counter, iteration in
                counter.withLockedValue { $0 += 1 }
                record(iteration)
            }
        )
    }

    @Test("inconsistencies recorded during a trial are counted and sampled")
    func recordedInconsistencies() async {
        let variant = Self.recording("odd") { iteration in
            if iteration.trial % 2 == 1 && iteration.index < 2 { iteration.recordInconsistency("odd trial") }
        }
        let report = await StressRunner.run(variant, options: .trials(10, iterations: 50))
        #expect(report.inconsistencies == 10)
        #expect(report.anomalousTrials == 5)
        #expect(report.lostWrites == 0)
        #expect(report.samples.first == "inconsistency: odd trial")
    }

    @Test("the samples kept are distinct: one message seen in every trial is kept once, beside the others")
    func distinctSamples() async {
        let variant = Self.recording("repeats") { iteration in
            if iteration.index < 2 { iteration.recordInconsistency("every trial") }
            if iteration.index == 0 && iteration.trial == 4 { iteration.recordInconsistency("trial 4") }
        }
        let report = await StressRunner.run(variant, options: .trials(6, iterations: 20))
        #expect(report.inconsistencies == 13)
        #expect(report.samples.sorted() == ["inconsistency: every trial", "inconsistency: trial 4"])
    }

    @Test("errors thrown by operations are errors, not anomalies, and the run goes on")
    func thrownErrors() async {
        struct Failure: Error {}
        let variant = Variant.counting(
            name: "throws",
            kind: .fixed,
            operation: { counter, iteration in
                if iteration.index == 0 { throw Failure() }
                counter.withLockedValue { $0 += 1 }
            },
            check: { counter, trial in .kept(counter.value + 1, of: trial.iterations) }
        )
        let report = await StressRunner.run(variant, options: .trials(3, iterations: 20))
        #expect(report.trials == 3)
        #expect(report.errors == 3)
        #expect(report.errorTrials == 3)
        #expect(report.anomalousTrials == 0)
        #expect(report.verdict == .error)
        #expect(report.verdictReason.hasPrefix("3 of 3 trials had errors (not evidence of the bug), first: "))
    }

    @Test(
        "a failed setup is an error, never a reproduction or a failure",
        arguments: [VariantKind.buggy, .fixed]
    )
    func failedSetupIsAnError(kind: VariantKind) async {
        // What a full disk does to a lesson that makes a folder per trial.
        let variant = Variant(
            name: "no-space",
            kind: kind,
            summary: "",
            makeState: { () throws -> LockedValueBox<Int> in throw POSIXError(.ENOSPC) },
            operation: { counter, _ in counter.withLockedValue { $0 += 1 } },
            check: { counter, trial in .kept(counter.value, of: trial.iterations) }
        )
        let report = await StressRunner.run(variant, options: .trials(3, iterations: 20))
        #expect(report.verdict == .error)
        #expect(report.errorTrials == 3)
        #expect(report.anomalousTrials == 0)
        #expect(report.lostWrites == 0)
        #expect(report.histogram.map(\.expectation) == [.error])
        #expect(report.verdictReason.contains("No space left on device") || report.verdictReason.contains("ENOSPC"))
    }

    @Test("failures a check reports in Observation.errors are errors: lost writes beside them are no evidence")
    func observedErrorsAreNotEvidence() async {
        let variant = Variant.counting(
            name: "store-failed",
            kind: .fixed,
            check: { counter, trial in
                // One write "failed" with a system error, so one write is missing: that is not a lost write.
                Observation(
                    expected: trial.iterations,
                    observed: counter.value - 1,
                    lostWrites: 1,
                    errors: 1,
                    outcome: "1 store failed",
                    meaning: "a store failed (No space left on device)"
                )
            }
        )
        let report = await StressRunner.run(variant, options: .trials(2, iterations: 10))
        #expect(report.verdict == .error)
        #expect(report.anomalousTrials == 0)
        #expect(report.errorTrials == 2)
        #expect(report.verdictReason.contains("a store failed (No space left on device)"))
    }

    @Test("evidence from trials without errors stands, and the reason says how many trials had errors")
    func evidenceBesideErrors() async {
        struct Failure: Error {}
        let variant = Variant.counting(
            name: "half-broken",
            kind: .buggy,
            operation: { counter, iteration in
                if iteration.trial == 1 && iteration.index == 0 { throw Failure() }
                if iteration.index % 2 == 0 { counter.withLockedValue { $0 += 1 } }
            }
        )
        let report = await StressRunner.run(variant, options: .trials(2, iterations: 10))
        #expect(report.verdict == .reproduced)
        #expect(report.anomalousTrials == 1)
        #expect(report.errorTrials == 1)
        #expect(report.verdictReason == "the bug showed in 1 of 2 trials; 1 other trial had errors and did not count")
    }

    @Test("async operations are joined before the check")
    func asyncOperationsAreJoined() async {
        actor Tally {
            var count = 0
            func add() { count += 1 }
        }
        let variant = Variant(
            name: "actor",
            kind: .fixed,
            summary: "",
            makeState: { Tally() },
            asyncOperation: { tally, _ in
                try await Task.sleep(for: .microseconds(50))
                await tally.add()
            },
            check: { tally, trial in .kept(await tally.count, of: trial.iterations) }
        )
        let report = await StressRunner.run(variant, options: .trials(20, iterations: 200))
        #expect(report.lostWrites == 0)
        #expect(report.verdict == .clean)
    }

    @Test("tear-down runs once per trial, after the check")
    func tearDownRunsPerTrial() async {
        let tornDown = LockedValueBox(0)
        let variant = Variant.counting(
            name: "tears-down",
            kind: .fixed,
            tearDown: { _ in tornDown.withLockedValue { $0 += 1 } }
        )
        _ = await StressRunner.run(variant, options: .trials(7, iterations: 10))
        #expect(tornDown.value == 7)
    }
}

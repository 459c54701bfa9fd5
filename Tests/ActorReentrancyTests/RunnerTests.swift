import ActorReentrancy
import RaceLab
import Testing

@Suite("The runner, driving the data sources from many tasks at once")
struct RunnerTests {
    @Test(
        "the buggy methods lose updates or resurrect items",
        arguments: ["buggy-update", "buggy-reload", "main-actor-update"]
    )
    func buggyReproduces(variant: String) async {
        // Measured here: over 99 % of trials with noise and 85 % to 95 % without for the actor's own
        // methods, about 55 % with noise for the UI-actor component's; 300 trials that all come out
        // consistent would take a rate below 1 in 50.
        let report = await StressRunner.run(lessonVariant(variant), trials: 300, iterations: 64)
        #expect(report.verdict == .reproduced)
        #expect(report.lostWrites + report.inconsistencies > 0)
    }

    @Test(
        "each fix stays consistent over 10^5 operations",
        arguments: ["await-first", "revalidate", "state-object", "in-flight-task", "main-actor-one-job"]
    )
    func fixIsClean(variant: String) async {
        let report = await StressRunner.run(lessonVariant(variant), trials: 1_000, iterations: 100)
        #expect(report.operations == 100_000)
        #expect(report.anomalousTrials == 0)
        #expect(report.errors == 0)
        #expect(report.verdict == .clean)
    }
}

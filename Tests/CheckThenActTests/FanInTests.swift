import CheckThenAct
import Foundation
import RaceLab
import RaceLabTesting
import Testing

@Suite("Fan-in: fetch callbacks collecting their errors")
struct FanInTests {
    @Test("the audit counts a missing failure as lost, a repeated one as a duplicate, a stranger as inconsistent")
    func auditCounts() {
        // Of 7 fetches, 0, 3 and 6 fail.
        let complete: [any Error] = [FetchError(index: 6), FetchError(index: 0), FetchError(index: 3)]
        #expect(!FetchAudit.observe(complete, fetches: 7).isAnomalous)

        let missing = FetchAudit.observe([FetchError(index: 0), FetchError(index: 6)], fetches: 7)
        #expect(missing.lostWrites == 1)

        let repeated = FetchAudit.observe(complete + [FetchError(index: 3)], fetches: 7)
        #expect(repeated.duplicates == 1 && repeated.lostWrites == 0)

        let stranger = FetchAudit.observe(complete + [FetchError(index: 4)], fetches: 7)
        #expect(stranger.inconsistencies == 1)
    }

    @Test("a batch's completion sees every failure of a protected batch")
    func protectedBatchCompletes() async {
        let batch = FetchBatch(collectingInto: Protected<[any Error]>(resource: []))
        for index in 0..<300 { batch.fetch(index) }
        let errors = await batch.completion()
        #expect(errors.count == SimulatedFetcher.failures(among: 300))
        #expect(!FetchAudit.observe(errors, fetches: 300).isAnomalous)
    }

    @Test("one thread recording into a plain array loses nothing: the bug needs two")
    func plainArrayAlone() {
        let errors = UnprotectedErrors()
        for index in stride(from: 0, to: 300, by: 3) { errors.record(FetchError(index: index)) }
        #expect(!FetchAudit.observe(errors.recorded(), fetches: 300).isAnomalous)
    }

    @Test(
        "two callbacks that both read the count before either writes it lose an error",
        .racesOnPurpose("callbacks appending to a plain array from two threads are a data race")
    )
    func plainArrayLosesAnError() async {
        let errors = UnprotectedErrors()
        let meeting = Rendezvous(at: "chose slot", parties: 2)
        await onThreads(2, hook: meeting) { thread in errors.record(FetchError(index: thread * 3)) }
        #expect(meeting.isComplete)
        #expect(errors.recorded().count == 1)
        #expect(FetchAudit.observe(errors.recorded(), fetches: 6).lostWrites == 1)
    }

    @Test(
        "the runner shows callbacks on a global queue losing errors in a plain array",
        .racesOnPurpose("callbacks appending to a plain array from several threads are a data race")
    )
    func runnerReproducesPlainArray() async {
        // Measured here: with noise every trial of 600 fetches loses errors (about half of its 200);
        // without noise, at most a few trials in a hundred do.
        await expectStress("errors-unprotected", trials: 20, iterations: 600, .lostWrites)
    }

    @Test("Protected<[Error]> records every failure exactly once over 120,000 fetches")
    func protectedIsClean() async {
        await expectStress("errors-protected", trials: 200, iterations: 600, .cleanOverEveryOperation)
    }
}

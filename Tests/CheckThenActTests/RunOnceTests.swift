import CheckThenAct
import Foundation
import RaceLab
import RaceLabTesting
import Testing

@Suite("Run once: checking a flag and then setting it")
struct RunOnceTests {
    @Test(
        "two threads that both read the flag before either sets it both run the work",
        .racesOnPurpose("the plain didExecute flag, read and written from two threads, is a data race")
    )
    func plainFlagRunsTwice() async {
        let once = RacyOnce()
        let work = ImportantWork()
        let meeting = Rendezvous(at: "saw didExecute false", parties: 2)
        await onThreads(2, hook: meeting) { _ in once.run { work.execute() } }
        #expect(meeting.isComplete)
        #expect(work.executions == 2)
    }

    @Test("one thread alone runs the work once, however often it asks")
    func plainFlagIsFineAlone() {
        let once = RacyOnce()
        let work = ImportantWork()
        for _ in 0..<10 { once.run { work.execute() } }
        #expect(work.executions == 1)
    }

    @Test(
        "the runner makes the plain flag run the work twice",
        .racesOnPurpose("the plain didExecute flag, read and written from every thread, is a data race")
    )
    func runnerReproducesThePlainFlag() async {
        // Measured here with noise: 26 % to 65 % of trials run the work twice (per run of 1,500,
        // whatever the machine's load). All 1,500 coming out right at 26 % has odds below 10^-190.
        let report = await expectReproduced(lessonVariant("buggy"), workload: Workload(trials: 1_500, iterations: 10))
        #expect(report.duplicates > 0)
        #expect(report.histogram.contains { $0.outcome == "2 executions" })
    }

    @Test(
        "each fix runs the work exactly once in 10,000 trials of 10 threads' worth",
        arguments: ["serial-queue", "lock", "atomic"]
    )
    func fixesRunOnce(variant: String) async {
        await expectStress(variant, trials: 10_000, iterations: 10, .cleanOverEveryOperation)
    }

    @Test("the serial queue decides later: until it drains, the work may not have run at all")
    func serialQueueNeedsDraining() {
        let once = SerialQueueOnce()
        let work = ImportantWork()
        let hold = DispatchSemaphore(value: 0)
        // The first item waits for the test, so every `run` returns with the work still queued.
        once.run {
            hold.wait()
            work.execute()
        }
        for _ in 0..<9 { once.run { work.execute() } }
        #expect(work.executions == 0)
        hold.signal()
        once.drain()
        #expect(work.executions == 1)
    }

    @Test("the serial queue runs the first caller's work once the queue has drained")
    func serialQueueAfterDraining() {
        let once = SerialQueueOnce()
        let work = ImportantWork()
        for _ in 0..<10 { once.run { work.execute() } }
        once.drain()
        #expect(work.executions == 1)
    }

    @Test("with the lock, a caller returns only after the work has run")
    func lockedOnceWaitsForTheWork() async {
        let once = LockedOnce()
        let work = ImportantWork()
        let seen = Protected<[Int]>(resource: [])
        await onThreads(4) { _ in
            once.run { work.execute() }
            let executions = work.executions
            seen.mutate { $0 + [executions] }
        }
        #expect(seen.read() == [1, 1, 1, 1])
    }
}

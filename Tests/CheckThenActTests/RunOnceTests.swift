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
        let meeting = Rendezvous(at: "saw false → execute()", parties: 2)
        await onThreads(2, hook: meeting) { _ in once.run { work.execute() } }
        #expect(meeting.isComplete)
        #expect(work.executions == 2)
    }

    /// One thread asking ten times for the work to run, through one kind of "once".
    struct AloneCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// Asks ten times and returns when the work that will run has run.
        var askTenTimes: @Sendable (ImportantWork) -> Void

        static let plainFlag = AloneCase(testDescription: "the plain flag") { work in
            let once = RacyOnce()
            for _ in 0..<10 { once.run { work.execute() } }
        }
        static let serialQueueDrained = AloneCase(testDescription: "the serial queue, once drained") { work in
            let once = SerialQueueOnce()
            for _ in 0..<10 { once.run { work.execute() } }
            once.drain()
        }
    }

    @Test(
        "one thread alone runs the work once, however often it asks",
        arguments: [AloneCase.plainFlag, .serialQueueDrained]
    )
    func aloneRunsOnce(alone: AloneCase) {
        let work = ImportantWork()
        alone.askTenTimes(work)
        #expect(work.executions == 1)
    }

    /// The runner's side of the bug, by a controlled schedule rather than the machine's luck: in each
    /// trial, the first call to reach the flag's window makes a second call from inside it, as a
    /// second thread reading the flag in that instant would, so every trial runs the work twice and
    /// the runner must count and report each duplicate. One call per trial on one thread: nothing
    /// depends on when the pool starts a second worker. (How often two real threads open the window
    /// is the lesson's measured table; two threads held in it are `plainFlagRunsTwice`.)
    @Test("the runner reports the work run twice in every trial where a second call lands in the window")
    func runnerReportsTheDuplicates() async {
        let forced = Variant(
            name: "buggy",
            kind: .buggy,
            summary: "the plain flag, a second call made inside its window",
            makeState: { ForcedOnce() },
            operation: { trial, _ in trial.run() },
            check: { trial, _ in .executions(trial.work.executions) }
        )
        let report = await StressRunner.run(forced, trials: 40, iterations: 1, noise: false)
        #expect(report.verdict == .reproduced)
        #expect(report.trials == 40)
        #expect(report.duplicates == 40, "every trial runs the work exactly twice")
        #expect(report.histogram.map(\.outcome) == ["2 executions"])
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

/// One trial of the forced interleaving: a `RacyOnce` whose window, the first time a call reaches it,
/// makes a second call (which sees the flag still `false` and runs the work) before the first goes on.
private struct ForcedOnce: Sendable {
    let once = RacyOnce()
    let work = ImportantWork()

    func run() {
        let secondCall = SecondCallInWindow { once.run { work.execute() } }
        Race.$hook.withValue(secondCall) { once.run { work.execute() } }
    }
}

/// A window hook that makes one call from inside the first window reached. Used by one call on one
/// thread (the nested call reaches the window again and is let through), so `made` needs no lock.
private final class SecondCallInWindow: RaceWindowHook, @unchecked Sendable {
    private let call: @Sendable () -> Void
    private var made = false

    init(_ call: @escaping @Sendable () -> Void) { self.call = call }

    func windowReached(_ name: StaticString) {
        guard !made else { return }
        made = true
        call()
    }
}

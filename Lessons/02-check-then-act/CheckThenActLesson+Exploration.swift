import Foundation
import RaceLab

/// What `racelab explore 2` runs: the lesson's own types on two (or `--threads`) logical threads.
///
/// The scheduling points are the types' own: the reads and writes of the `@RaceShared` flag and
/// error count (`read didExecute`, `write errors.count`), `lock once` (a `RaceLock`), the
/// `RaceQueue` operations of `SerialQueueOnce` and `ReadWriteLock` (`sync`, work items, and with
/// marks off each `async` submission), and the marks (`saw false → execute()`, `chose slot`,
/// `compare-exchange didExecute`, `async check-and-set`, `Protected`'s `read` and `mutate`). A
/// fetch's callback is a thread of its own (the `fetch callback` hand-off), so the explorer chooses
/// when each callback runs.
extension CheckThenActLesson {
    /// Something with the `run(_:)` of the "run once" flags.
    protocol RunOnce: Sendable {
        func run(_ execute: () -> Void)
        /// The flag, for the explorer's state line: read between steps while every thread is
        /// paused, so never through a lock (a paused thread may hold it).
        var flagBetweenSteps: Bool { get }
    }

    /// Every thread asks to run the work; afterwards it must have run exactly once.
    ///
    /// Between steps it shows the flag and how many times the work ran so far
    /// (`didExecute false · work ran 1 time`).
    static func onceExploration<Once: RunOnce>(_ makeOnce: @escaping @Sendable () -> Once) -> Exploration {
        Exploration(
            summary: "each thread calls run { execute() }; invariant: execute() ran exactly once",
            makeState: { OnceTrial(once: makeOnce()) },
            thread: { trial, _ in trial.once.run { trial.work.execute() } },
            invariant: { trial, _ in executedOnce(trial.work.executions) },
            describeState: { trial in onceState(flag: trial.once.flagBetweenSteps, work: trial.work) }
        ).markingEveryWindow()
    }

    static let serialQueueExploration = Exploration(
        summary: "each thread calls run { execute() }; invariant: execute() ran exactly once",
        makeState: { OnceTrial(once: SerialQueueOnce()) },
        thread: { trial, _ in trial.enqueueWork() },
        invariant: { trial, _ in executedOnce(trial.drainedExecutions()) },
        // Read directly, not through the queue: every work item is paused too.
        describeState: { trial in onceState(flag: trial.once.didExecute, work: trial.work) }
    ).markingEveryWindow()

    /// The state line of a "run once" exploration: the flag and the work's count so far.
    private static func onceState(flag: Bool, work: ImportantWork) -> String {
        let runs = work.executions
        return "didExecute \(flag) · work ran \(runs) \(runs == 1 ? "time" : "times")"
    }

    /// Every thread increments the counter once; afterwards it must equal the thread count.
    ///
    /// Between steps it shows the counter and what each thread read and will write (`thread 0 read
    /// 0, writes 1`) until its write's barrier has run (`thread 0 wrote 1`): a write that changes
    /// nothing is where an increment is lost. The counter is read inside a `sync` item from the
    /// controller's thread while every logical thread is paused.
    static func counterExploration(_ increment: @escaping @Sendable (Protected<Int>) -> Void) -> Exploration {
        Exploration(
            summary: "each thread increments a Protected counter once; invariant: counter == threads",
            makeState: { CounterTrial() },
            thread: { trial, index in
                CounterReads.$current.withValue(.init(log: trial.reads, thread: index)) { increment(trial.counter) }
            },
            invariant: { trial, threads in
                let value = trial.counter.read()
                return value == threads ? nil : "counter is \(value) after \(threads) increments"
            },
            describeState: { trial in
                let reads = trial.reads.values.map {
                    $0.wrote
                        ? "thread \($0.thread) wrote \($0.value + 1)"
                        : "thread \($0.thread) read \($0.value), writes \($0.value + 1)"
                }
                return (["counter holds \(trial.counter.read())"] + reads).joined(separator: " · ")
            }
        ).markingEveryWindow()
    }

    /// Every thread starts one failing fetch; afterwards the completion must see each error once.
    ///
    /// The callbacks are the racing threads: the fetching threads only start them. Fetch `3 * index`
    /// fails (every third fetch does), so each callback records one error. Between steps the plain
    /// array shows its count and slots (`UnprotectedErrors.stateBetweenSteps`), the protected one
    /// the errors recorded, read through `read()` while every logical thread is paused.
    static func errorsExploration(_ makeErrors: @escaping @Sendable () -> any ErrorCollector) -> Exploration {
        Exploration(
            summary:
                "thread i starts fetch 3 × i, which fails (every third fetch does), and its callback records the "
                + "error; invariant: the completion sees every error once",
            makeState: { FetchBatch(collectingInto: makeErrors()) },
            thread: { batch, index in
                Race.step("start fetch")
                batch.fetch(3 * index)
            },
            invariant: { batch, threads in
                let errors = batch.waitForCompletion()
                let recorded = errors.compactMap { ($0 as? FetchError)?.index }.sorted()
                let expected = (0..<threads).map { 3 * $0 }
                return recorded == expected
                    ? nil : "the completion saw errors of fetches \(recorded), expected \(expected)"
            },
            describeState: { batch in
                if let unprotected = batch.errors as? UnprotectedErrors { return unprotected.stateBetweenSteps }
                let recorded = batch.errors.recorded().compactMap { ($0 as? FetchError)?.index }
                return "errors recorded: "
                    + (recorded.isEmpty ? "none" : recorded.map { "fetch \($0)" }.joined(separator: ", "))
            }
        ).markingEveryWindow()
    }

    private static func executedOnce(_ executions: Int) -> String? {
        executions == 1 ? nil : "execute() ran \(executions) times"
    }
}

/// One exploration of the counter: the counter and the values its threads read.
struct CounterTrial: Sendable {
    let counter = Protected(resource: 0)
    let reads = CounterReadLog()
}

/// The values the threads read before writing the counter back, in the order they read them, and
/// whether each thread's write has landed.
final class CounterReadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reads: [(thread: Int, value: Int, wrote: Bool)] = []

    func add(thread: Int, value: Int) {
        lock.withLock { reads.append((thread, value, false)) }
    }

    /// `thread`'s write ran (in its barrier item).
    func wrote(thread: Int) {
        lock.withLock {
            if let index = reads.firstIndex(where: { $0.thread == thread && !$0.wrote }) { reads[index].wrote = true }
        }
    }

    var values: [(thread: Int, value: Int, wrote: Bool)] {
        lock.withLock { reads }
    }
}

/// Where `incrementByReadingThenWriting` records the value it read, and `Protected.write` that the
/// write landed, for the explorer's state line: the log and the logical thread; nil (no record)
/// outside the explorer.
struct CounterReads: Sendable {
    @TaskLocal static var current: CounterReads?

    let log: CounterReadLog
    let thread: Int

    func record(_ value: Int) {
        log.add(thread: thread, value: value)
    }

    /// This thread's write landed.
    func wrote() {
        log.wrote(thread: thread)
    }
}

extension RacyOnce: CheckThenActLesson.RunOnce {}

extension LockedOnce: CheckThenActLesson.RunOnce {
    var flagBetweenSteps: Bool { didExecute }
}

extension AtomicOnce: CheckThenActLesson.RunOnce {
    var flagBetweenSteps: Bool { didExecute.load(ordering: .acquiring) }
}

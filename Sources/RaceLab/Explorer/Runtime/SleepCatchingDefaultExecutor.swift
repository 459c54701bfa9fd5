// The executor factory (SE-0466's custom default executors) is SPI in the Swift 6.3 standard
// library, like the delayed enqueue of `ExplorerExecutor+Scheduling.swift`. Linux only: the SPI is
// checked against the open-source 6.3.1 toolchain here; whether Apple's SDKs export it the same way
// could not be checked without a Mac, and a compile error there would break every Mac build.
#if compiler(>=6.3) && os(Linux)
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// The process's default executor, wrapped so that a sleep in a task that prefers no executor
/// reaches the explorer.
///
/// `Task.sleep` and clock sleeps hand their wake-up to the current *scheduling* executor: the
/// current actor's if it has one, else the task's preferred executor, else the task executor the
/// job runs on, else the default executor. A plain `Task { }` prefers none, and when it runs inside
/// a default actor's queue (it waited for the actor while another job held it) the runtime clears
/// the job's task executor, so the wake-up goes to the default executor, which arms a system timer
/// (checked on Swift 6.3.1: the runtime's `swift_task_enqueueGlobalWithDelay_hook` and
/// `…WithDeadline_hook` are not called on that path). The wake-up then takes real time and comes
/// from outside the explorer, so a replay depends on timing. Wrapped, the default executor offers
/// each delayed job to `AsyncJobs` first: one of an execution becomes a scheduling point at once (a
/// sleep costs no wall time); any other job keeps its delay. Plain enqueues pass straight through.
///
/// Installed once in a process, when the first execution that schedules jobs begins, and never
/// removed: the runtime reads the default executor on every global enqueue, and swapping it back
/// and forth would only add moments where another thread reads it while it is written. The one
/// swap happens in the standard library (`_createExecutors`) and keeps the main executor as it
/// was. Another thread may read the variable while it is written, and could get the new object
/// with the old conformance or the reverse; so the wrapper, like the platform's executor it
/// replaces, keeps no state in the object: the original executor is a process-wide constant,
/// created before the swap, and it stays alive, so every combination still reaches a live
/// executor.
final class SleepCatchingDefaultExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
    /// The platform's default executor, which every job is passed on to.
    private static let original: any TaskExecutor = Task.defaultExecutor
    private var original: any TaskExecutor { Self.original }

    private static let installed: Void = {
        _ = original
        _createExecutors(factory: Factory.self)
    }()

    /// Wraps the default executor, the first time only.
    static func install() {
        _ = installed
    }

    private enum Factory: ExecutorFactory {
        static var mainExecutor: any MainExecutor { MainActor.executor }
        static var defaultExecutor: any TaskExecutor {
            SleepCatchingDefaultExecutor()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        original.enqueue(job)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueueIfNotTaken(job) { scheduling, job in
            scheduling.enqueue(ExecutorJob(job), after: delay, tolerance: tolerance, clock: clock)
        }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueueIfNotTaken(job) { scheduling, job in
            scheduling.enqueue(ExecutorJob(job), at: instant, tolerance: tolerance, clock: clock)
        }
    }

    /// Hands a delayed job the explorer did not take to the original executor: delayed by
    /// `schedule` where it can schedule, else at once.
    private func enqueueIfNotTaken(
        _ job: consuming ExecutorJob,
        schedule: (any SchedulingExecutor, UnownedJob) -> Void
    ) {
        guard let unowned = Self.notTaken(job) else { return }
        if let scheduling = original as? any SchedulingExecutor {
            schedule(scheduling, unowned)
        } else {
            original.enqueue(ExecutorJob(unowned))
        }
    }

    /// Offers a delayed job to the explorer: nil when an execution took it, else the job back.
    /// (The platform's default executor always schedules; one that cannot would run it at once.)
    private static func notTaken(_ job: consuming ExecutorJob) -> UnownedJob? {
        let unowned = UnownedJob(job)
        return AsyncJobs.intercept(unowned, door: .sleep) ? nil : unowned
    }
}
#endif

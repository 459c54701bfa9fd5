// SchedulingExecutor (SE-0505's delayed enqueue) is SPI in the Swift 6.3 standard library.
#if compiler(>=6.3)
import Foundation
@_spi(ExperimentalScheduling) import _Concurrency

/// Sleeps under the explorer: `Task.sleep` and clock sleeps in a task that runs here hand their
/// wake-up to this executor (SE-0466's `SchedulingExecutor`). In an execution that schedules jobs
/// the wake-up is enqueued at once, so a sleep takes no wall time and whether it ends before or
/// after another job is one more choice of the strategy, never a matter of timing. Elsewhere the
/// delay is kept.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
extension ExplorerExecutor: SchedulingExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        let job = UnownedJob(job)
        if AsyncJobs.intercept(job, door: .sleep) { return }
        let seconds = (delay as? Duration)?.seconds
        DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds ?? 0)) { [self] in run(job, for: nil) }
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        enqueue(job, after: clock.now.duration(to: instant), tolerance: tolerance, clock: clock)
    }
}
#endif

import Foundation
import Synchronization

/// The Swift runtime's hooks on the global executor (exported by the concurrency runtime on Linux
/// and Darwin, declared in its `Concurrency.h`): while an execution that schedules jobs runs, every
/// job enqueued on the global executor is first offered to `AsyncJobs`; those of no execution go
/// on as before.
///
/// - `swift_task_enqueueGlobal_hook`: jobs to run now, such as an unstructured `Task { }`, which
///   does not inherit the task executor preference.
/// - `swift_task_enqueueGlobalWithDelay_hook` and `…WithDeadline_hook`: delayed jobs. Runtimes
///   before Swift 6.2 (macOS 15, iOS 18) send every `Task.sleep` there. From 6.2 on a sleep goes to
///   the current scheduling executor instead and these are not called (checked on Swift 6.3.1;
///   `SleepCatchingDefaultExecutor` covers that path), but code that calls the runtime's delayed
///   enqueue directly still reaches them.
///
/// Installed when the first such execution starts and restored when the last ends, so code outside
/// the explorer (other tests in the same process) never runs through them for longer than that, and
/// what they do meanwhile is pass their jobs on.
enum GlobalExecutorHook {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
    typealias DelayOriginal = @convention(thin) (_ nanoseconds: UInt64, UnownedJob) -> Void
    typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
    typealias DeadlineOriginal =
        @convention(thin) (
            _ seconds: Int64, _ nanoseconds: Int64, _ toleranceSeconds: Int64, _ toleranceNanoseconds: Int64,
            _ clock: Int32, UnownedJob
        ) -> Void
    typealias DeadlineHook =
        @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

    private static let now = RuntimeHookSlot<Hook>("swift_task_enqueueGlobal_hook")
    private static let delay = RuntimeHookSlot<DelayHook>("swift_task_enqueueGlobalWithDelay_hook")
    private static let deadline = RuntimeHookSlot<DeadlineHook>("swift_task_enqueueGlobalWithDeadline_hook")

    /// Called with `AsyncJobs`' lock held.
    static func install() {
        now.install { job, original in
            if AsyncJobs.intercept(job) { return }
            if let previous = GlobalExecutorHook.now.previous { previous(job, original) } else { original(job) }
        }
        delay.install { nanoseconds, job, original in
            if AsyncJobs.intercept(job, door: .sleep) { return }
            if let previous = GlobalExecutorHook.delay.previous {
                previous(nanoseconds, job, original)
            } else {
                original(nanoseconds, job)
            }
        }
        deadline.install { seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original in
            if AsyncJobs.intercept(job, door: .sleep) { return }
            if let previous = GlobalExecutorHook.deadline.previous {
                previous(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job, original)
            } else {
                original(seconds, nanoseconds, toleranceSeconds, toleranceNanoseconds, clock, job)
            }
        }
    }

    /// Called with `AsyncJobs`' lock held.
    static func restore() {
        now.restore()
        delay.restore()
        deadline.restore()
    }
}

/// One of the runtime's hook variables, found by its exported name, and the hook it held before
/// (nil, unless another tool installed one).
final class RuntimeHookSlot<Hook>: Sendable {
    nonisolated(unsafe) private let slot: UnsafeMutableRawPointer?
    /// The previous hook, as its bit pattern: written under `AsyncJobs`' lock, but read by the hook
    /// on whatever thread enqueues a job, with nothing ordering the two but the runtime's
    /// uninstrumented read of the slot, so it is atomic (ThreadSanitizer reported the plain
    /// variable this was, rightly).
    private let previousBits = Atomic<UInt>(0)

    init(_ name: String) {
        slot = dlsym(dlopen(nil, RTLD_NOW), name)
    }

    var previous: Hook? {
        unsafeBitCast(previousBits.load(ordering: .acquiring), to: Hook?.self)
    }

    func install(_ hook: Hook) {
        guard let slot = slot?.assumingMemoryBound(to: Hook?.self) else { return }
        previousBits.store(unsafeBitCast(slot.pointee, to: UInt.self), ordering: .releasing)
        slot.pointee = hook
    }

    func restore() {
        slot?.assumingMemoryBound(to: Hook?.self).pointee = previous
    }
}

import Foundation
import Synchronization

/// The Swift runtime's hook on the global executor (`swift_task_enqueueGlobal_hook`, exported by
/// the concurrency runtime on Linux and Darwin): while an execution that schedules jobs runs, every
/// job enqueued on the global executor (an unstructured `Task { }`, which does not inherit the task
/// executor preference) is first offered to `AsyncJobs`; those of no execution go on as before.
///
/// Installed when the first such execution starts and restored when the last ends, so code outside
/// the explorer (other tests in the same process) never runs through it for longer than that, and
/// what it does meanwhile is pass their jobs on.
enum GlobalExecutorHook {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    nonisolated(unsafe) private static let slot: UnsafeMutablePointer<Hook?>? = dlsym(
        dlopen(nil, RTLD_NOW),
        "swift_task_enqueueGlobal_hook"
    )?.assumingMemoryBound(to: Hook?.self)
    /// The hook found when installing (nil, unless another tool installed one), as its bit pattern:
    /// written under `AsyncJobs`' lock, but read by the hook on whatever thread enqueues a job, with
    /// nothing ordering the two but the runtime's uninstrumented read of the slot, so it is atomic
    /// (ThreadSanitizer reported the plain variable this was, rightly).
    private static let previousBits = Atomic<UInt>(0)

    private static var previous: Hook? {
        unsafeBitCast(previousBits.load(ordering: .acquiring), to: Hook?.self)
    }

    /// Called with `AsyncJobs`' lock held.
    static func install() {
        guard let slot else { return }
        previousBits.store(unsafeBitCast(slot.pointee, to: UInt.self), ordering: .releasing)
        slot.pointee = { job, original in
            if !AsyncJobs.intercept(job) { GlobalExecutorHook.forward(job, original) }
        }
    }

    /// Called with `AsyncJobs`' lock held.
    static func restore() {
        slot?.pointee = previous
    }

    private static func forward(_ job: UnownedJob, _ original: Original) {
        if let previous { previous(job, original) } else { original(job) }
    }
}

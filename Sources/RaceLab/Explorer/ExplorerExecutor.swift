import Dispatch

/// Where the explorer runs asynchronous logical threads: a task executor on threads of its own.
///
/// A logical thread paused at a scheduling point blocks the real thread it is on. Tasks normally
/// run on the cooperative pool, which has one thread per core (two here): two paused tasks would
/// leave nothing to run the task the explorer chooses next. Jobs of a task that prefers this
/// executor (and of the default actors it calls) run on a concurrent dispatch queue, whose pool
/// adds a thread when the ones it has are blocked.
final class ExplorerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ExplorerExecutor()

    private let queue = DispatchQueue(label: "racelab.explorer.tasks", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

import Foundation

/// Runs async work to its end with its jobs on the calling thread, which waits meanwhile: a
/// trial's check runs where the trial ran, with no hop to the cooperative pool and back (two
/// wake-ups of other threads per trial, each as long as a busy machine makes it).
///
/// The work's task prefers this executor, so its jobs, its structured child tasks' and those of the
/// default actors it calls run here, one after the other; an unstructured `Task { }` it creates runs
/// on the global executor as usual, and a job resumed from another thread (a continuation a queue
/// resumes) is enqueued here and run by the waiting thread. Work that blocks its thread until a job
/// of its own task runs would wait forever, as it would on a one-thread pool.
final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs enqueued and not yet run, oldest first; guarded by `condition`.
    private var jobs: [UnownedJob] = []
    private var finished = false

    private init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` in a task whose jobs run on the calling thread; returns what it returned.
    static func run<Success: Sendable>(_ work: @escaping @Sendable () async throws -> Success) throws -> Success {
        let executor = CallingThreadExecutor()
        let result = LockedValueBox<Result<Success, any Error>?>(nil)
        // Detached, as the check ran before: it sees none of the caller's task-locals.
        Task.detached(executorPreference: executor) {
            let outcome: Result<Success, any Error>
            do {
                outcome = .success(try await work())
            } catch {
                outcome = .failure(error)
            }
            result.withLockedValue { $0 = outcome }
            executor.finish()
        }
        executor.runJobs()
        return try result.withLockedValue { $0! }.get()
    }

    /// The task has returned: `runJobs` returns once no job is left.
    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come until the task has finished and none is left.
    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty && !finished { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}

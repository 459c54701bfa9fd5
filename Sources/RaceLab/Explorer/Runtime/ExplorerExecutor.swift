import Foundation

/// Where the explorer runs asynchronous logical threads: a task executor with threads of its own,
/// one free thread for every job.
///
/// A logical thread paused at a scheduling point blocks the real thread it is on, and so does a
/// thread waiting for its first turn. Tasks normally run on the cooperative pool, which has one
/// thread per core: two paused tasks would leave nothing to run the task the explorer chooses next.
/// Jobs of a task that prefers this executor (and of the default actors it calls) run here instead.
///
/// A pool that grows "when its threads are blocked" is not enough either: libdispatch's global
/// pool on Linux adds a thread only when fewer of its threads are runnable than there are cores,
/// checked once a second, so while other work keeps it busy (a stress test in the same process) a
/// chosen task could wait seconds for a thread and be reported stuck. So this executor never waits
/// for one: a job that finds no idle thread starts a new one. Threads stay, idle, for later jobs;
/// there are never more than the most jobs that were running or waiting at once.
///
/// In an execution that schedules jobs (`AsyncJobs`), an enqueued job is not run at once: it
/// becomes a scheduling point, and runs here when the strategy chooses it (`run(_:for:)`).
final class ExplorerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ExplorerExecutor()

    private let condition = NSCondition()
    /// A job's logical thread, when an execution chose it.
    typealias Owner = (execution: ControlledExecution, thread: Int)

    /// Jobs not yet taken by a thread, oldest first.
    private var jobs: [(job: UnownedJob, owner: Owner?)] = []
    private var first = 0
    /// Threads waiting for a job.
    private var idle = 0
    private var started = 0
    /// Per worker thread running a chosen job: whose it is.
    private var owners: [ObjectIdentifier: Owner] = [:]
    /// Worker threads, and those running a job now, as the stall diagnosis samples them.
    private var workers: Set<SampledThread> = []
    private var busy: Set<SampledThread> = []

    /// Threads this executor has started so far (for its tests).
    var threadCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return started
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if AsyncJobs.intercept(job) { return }
        run(job, for: nil)
    }

    /// Runs `job` on a thread of this executor now; `owner`'s execution gets the baton back when
    /// the job returns.
    func run(_ job: UnownedJob, for owner: Owner?) {
        condition.lock()
        defer { condition.unlock() }
        jobs.append((job, owner))
        // Each waiting job is owed a thread: an idle one, or a new one.
        if jobs.count - first > idle {
            started += 1
            let thread = Thread { [self] in work() }
            thread.name = "racelab.explorer.tasks"
            thread.start()
        } else {
            // Every idle thread waits for the same thing, any job: one wake-up per job is enough.
            // (A thread already woken is no longer waiting, so the next job's signal wakes another.)
            condition.signal()
        }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        let sampled = SampledThread.current
        if let sampled {
            condition.lock()
            workers.insert(sampled)
            condition.unlock()
        }
        while true {
            condition.lock()
            while first == jobs.count {
                idle += 1
                condition.wait()
                idle -= 1
            }
            let (job, owner) = jobs[first]
            first += 1
            if first == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                first = 0
            }
            if let sampled { busy.insert(sampled) }
            condition.unlock()
            let worker = ObjectIdentifier(Thread.current)
            if let owner {
                condition.lock()
                owners[worker] = owner
                condition.unlock()
            }
            job.runSynchronously(on: executor)
            condition.lock()
            if let sampled { busy.remove(sampled) }
            if owner != nil { owners[worker] = nil }
            condition.unlock()
            if let owner { owner.execution.jobEnded(owner.thread) }
        }
    }

    /// Whether `thread` is one of this executor's workers with no job now. A task that suspended
    /// left the worker it ran on: what that worker does next (wait, or wake for another job) says
    /// nothing about the task, so a stuck task's last worker is only sampled while it runs a job.
    func isIdleWorker(_ thread: SampledThread) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return workers.contains(thread) && !busy.contains(thread)
    }

    /// The logical thread whose job the calling thread runs, if it is one of this executor's
    /// running a chosen job: jobs enqueued outside any task (an actor's queue run) belong to it.
    var currentOwner: Owner? {
        condition.lock()
        defer { condition.unlock() }
        return owners[ObjectIdentifier(Thread.current)]
    }
}

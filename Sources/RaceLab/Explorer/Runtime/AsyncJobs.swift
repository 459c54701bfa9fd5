import Foundation

/// The explorer's scheduling of Swift concurrency jobs: an async exploration runs one job at a time,
/// and every job enqueued for it (a task started, an actor's queue run, a task resumed after an
/// `await`, a sleep's wake-up) is a scheduling point that the strategy chooses among. The code under
/// exploration needs no mark and no RaceLab type; marks (unless `ExplorationOptions.marks` is false)
/// and RaceLab's primitives add points inside a job.
///
/// Each task is a logical thread: a program thread's task is that thread, and a task the code
/// creates (`Task { }`, the task behind a `Task.sleep`) is a new thread started by its creator. A
/// job that belongs to no task (an actor's queue being run) is a short thread of its own, started by
/// the thread that enqueued it and finished when the job returns. A job is recognised by the task it
/// runs (`swift_task_getJobTaskId`, exported by the Swift runtime on Linux and Darwin), so the same
/// choices give the same threads, and a replay runs the same jobs in the same order.
///
/// A job reaches the explorer by three doors: the explorer's task executor (tasks that prefer it,
/// and default actors those tasks call), the global executor's enqueue hook
/// (`swift_task_enqueueGlobal_hook`, for unstructured `Task { }`: SE-0417 executor preferences are
/// not inherited by unstructured tasks; checked on Swift 6.3.1), installed only while such an
/// execution runs, and the executor's scheduling entry points (`Task.sleep`, clock sleeps), which
/// enqueue the wake-up at once: a sleep costs no wall time, it is only one more choice.
enum AsyncJobs {
    /// Kinds of doors, for naming the point a job is paused at.
    enum Door {
        case executor
        case sleep
    }

    private static let lock = NSCondition()
    /// The execution that schedules jobs now. One at a time in a process: a global actor
    /// (`@MainActor`, a lesson's `@UIActor`) is shared by every execution, and one that another
    /// execution keeps busy would run this one's jobs on its own schedule.
    nonisolated(unsafe) private static var active: ControlledExecution?
    /// Task id → the execution whose task it is.
    nonisolated(unsafe) private static var tasks: [UInt64: ControlledExecution] = [:]

    /// Starts routing jobs to `execution`, once no other execution schedules jobs, and installs the
    /// global hook.
    static func begin(_ execution: ControlledExecution) {
        lock.lock()
        defer { lock.unlock() }
        while active != nil { lock.wait() }
        active = execution
        GlobalExecutorHook.install()
        #if compiler(>=6.3) && os(Linux)
        SleepCatchingDefaultExecutor.install()
        #endif
    }

    /// Stops routing jobs to `execution` and restores the global hook.
    static func end(_ execution: ControlledExecution) {
        lock.lock()
        defer { lock.unlock() }
        GlobalExecutorHook.restore()
        active = nil
        tasks = [:]
        lock.broadcast()
    }

    /// Takes `job` into the execution it belongs to, as a scheduling point; false when it belongs to
    /// none (it then runs as it would have without the explorer).
    static func intercept(_ job: UnownedJob, door: Door = .executor) -> Bool {
        let task = TaskIdentity.of(job)
        lock.lock()
        if active == nil {
            lock.unlock()
            return false
        }
        if task != 0, let execution = tasks[task] {
            lock.unlock()
            noteCurrentTaskName(in: execution)
            execution.enqueue(job, task: task, creator: nil, door: door)
            return true
        }
        guard let creator = context() else {
            lock.unlock()
            return false
        }
        if task != 0 { tasks[task] = creator.execution }
        lock.unlock()
        noteCurrentTaskName(in: creator.execution)
        creator.execution.enqueue(job, task: task, creator: creator.thread, door: door)
        return true
    }

    /// A task's name (`Task(name:)`, SE-0469) can be read only by the task itself: when the
    /// enqueueing code runs in one of the execution's tasks, its thread takes that name.
    private static func noteCurrentTaskName(in execution: ControlledExecution) {
        guard let current = TaskIdentity.current(), let name = TaskIdentity.currentName() else { return }
        execution.name(task: current, name)
    }

    /// The logical thread the caller runs as, in an execution that schedules jobs.
    static func currentThread() -> LogicalThread? {
        lock.lock()
        defer { lock.unlock() }
        guard active != nil, let (execution, thread) = context() else { return nil }
        return LogicalThread(id: thread, execution: execution)
    }

    /// Who is enqueueing (lock held): the current task if it is one of an execution's, else the job
    /// an explorer worker runs, else the logical thread bound on this thread.
    private static func context() -> (execution: ControlledExecution, thread: Int)? {
        if let current = TaskIdentity.current(), let execution = tasks[current],
            let thread = execution.thread(ofTask: current)
        {
            return (execution, thread)
        }
        if let owner = ExplorerExecutor.shared.currentOwner {
            return owner
        }
        if let logical = Race.hook as? LogicalThread, logical.execution === active {
            return (logical.execution, logical.id)
        }
        return nil
    }
}

/// Task ids, as the Swift runtime numbers them: unique in the process, 0 for a job that is no task.
enum TaskIdentity {
    @_silgen_name("swift_task_getJobTaskId")
    private static func jobTaskID(_ job: UnownedJob) -> UInt64

    static func of(_ job: UnownedJob) -> UInt64 {
        jobTaskID(job)
    }

    /// The id of the task the caller runs in, if any. A task is its own job: the runtime's
    /// `AsyncTask` derives from `Job`, and `UnsafeCurrentTask` holds nothing but the task.
    static func current() -> UInt64? {
        withUnsafeCurrentTask { task in
            task.map { jobTaskID(unsafeBitCast($0, to: UnownedJob.self)) }
        }
    }

    /// The name the caller's task was given (`Task(name:)`), if any and if the runtime keeps names
    /// (Swift 6.2 and later).
    static func currentName() -> String? {
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return Task.name
        }
        return nil
    }
}

/// A job waiting to run: a task's start or resumption, an actor's queue, a sleep's wake-up. Chosen,
/// it is handed to an explorer worker thread, which runs it holding the baton.
struct JobPoint: SchedulingPoint {
    let name: String
    let job: UnownedJob
    let execution: ControlledExecution

    func chosen(by thread: Int, in state: ExecutionState) {
        dispatch(as: thread)
    }

    func dispatch(as thread: Int) {
        ExplorerExecutor.shared.run(job, for: (execution, thread))
    }
}

/// A task suspended with no job enqueued: it waits for something (a continuation, another task, an
/// actor) that another job will provide. Not offered to the strategy.
struct AwaitingJob: SchedulingPoint {
    var name: String { "await (suspended)" }

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool { false }
}

/// What an execution that schedules jobs keeps: which threads are tasks, which task is which
/// thread, and which threads are a single job.
final class AsyncJobsModel: ModelObject {
    var taskThreads: [UInt64: Int] = [:]
    /// Task id → the name the task was given, once seen (`AsyncJobs.noteCurrentTaskName`).
    var taskNames: [UInt64: String] = [:]
    var asyncThreads: Set<Int> = []
    var singleJobThreads: Set<Int> = []
    /// A program thread about to start its task: the next new task it creates is that thread.
    var adopting: Int?

    static func of(_ state: ExecutionState) -> AsyncJobsModel {
        state.model(of: ObjectIdentifier(AsyncJobsModel.self), AsyncJobsModel.init)
    }
}

extension ControlledExecution {
    /// The logical thread task `task` runs as, if it is one of this execution's.
    func thread(ofTask task: UInt64) -> Int? {
        withState { AsyncJobsModel.of($0).taskThreads[task] }
    }

    /// Records the name of task `task` and names its thread after it (a spawned one: the program's
    /// threads keep their numbers).
    func name(task: UInt64, _ name: String) {
        withState { state in
            let model = AsyncJobsModel.of(state)
            guard model.taskNames[task] == nil else { return }
            model.taskNames[task] = name
            if let thread = model.taskThreads[task] { state.rename(thread, to: name) }
        }
    }

    /// Registers `job` as the point its thread is paused at. `creator` is set for a job whose task
    /// (or, for a job that is no task, whose thread) is new.
    fileprivate func enqueue(_ job: UnownedJob, task: UInt64, creator: Int?, door: AsyncJobs.Door) {
        lock.lock()
        defer { lock.unlock() }
        let model = AsyncJobsModel.of(state)
        let point: (String) -> JobPoint = { JobPoint(name: $0, job: job, execution: self) }
        if task != 0, let thread = model.taskThreads[task],
            state.pending[thread] == nil || state.pending[thread] is AwaitingJob
        {
            let name = (door == .sleep ? "wake after sleep" : "resume") + (model.taskNames[task].map { " \($0)" } ?? "")
            state.pause(thread, at: point(name))
            trace.paused(thread, at: name)
        } else if task != 0, let creator, model.adopting == creator {
            model.adopting = nil
            model.taskThreads[task] = creator
            model.asyncThreads.insert(creator)
            state.pause(creator, at: point("start"))
            trace.paused(creator, at: "start")
        } else if task != 0, model.taskThreads[task] == nil {
            let name = door == .sleep ? "sleep" : "Task"
            let thread = state.addThread(by: creator ?? 0, name: name, first: point("start \(name)"))
            model.taskThreads[task] = thread
            model.asyncThreads.insert(thread)
        } else {
            // A job that is no task (an actor's queue, a continuation resumed after a delay), or a
            // task already holding a job: a thread of one job.
            let (name, first) = door == .sleep ? ("sleep", "wake after sleep") : ("actor job", "run actor queue")
            let thread = state.addThread(by: creator ?? 0, name: name, first: point(first))
            model.singleJobThreads.insert(thread)
        }
        // A job from outside the execution (a real timer, a callback) may be what it waits for.
        wakeController()
    }

    /// Called by the worker that ran a job of `thread`: the job returned, so the baton comes back.
    /// A task thread with no job of its own enqueued now waits for one.
    func jobEnded(_ thread: Int) {
        lock.lock()
        defer { lock.unlock() }
        let model = AsyncJobsModel.of(state)
        if model.singleJobThreads.contains(thread) { state.finish(thread) }
        for waiting in model.asyncThreads where !state.isFinished(waiting) && state.pending[waiting] == nil {
            state.pause(waiting, at: AwaitingJob())
        }
        takeBack()
    }

    /// Whether the execution has come to rest: every program thread finished, and the threads left
    /// are tasks waiting for a job that no one will enqueue (a task that finished looks the same).
    func isSettled(programThreads: Int, unfinished: [Int]) -> Bool {
        schedulesJobs && unfinished.allSatisfy { $0 >= programThreads && state.pending[$0] is AwaitingJob }
    }

    /// With no thread able to go on and some waiting for a job: waits (lock held) until a job
    /// is enqueued from outside the execution (a real timer, a callback) or `timeout` passes;
    /// true if something changed.
    func awaitOutsideJob(unfinished: [Int], timeout: Double) -> Bool {
        guard schedulesJobs, unfinished.contains(where: { state.pending[$0] is AwaitingJob }) else { return false }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while unfinished.allSatisfy({ !state.canProceed($0) }) {
            if !awaitWakeUp(until: deadline) { return unfinished.contains(where: state.canProceed) }
        }
        return true
    }

    /// Runs `body` as program thread `thread`'s task, blocking this (real) thread until it ends;
    /// the task's jobs are the thread's scheduling points. An error the body throws fails the
    /// schedule, as a synchronous thread's does.
    func runTask(as thread: Int, _ body: @escaping @Sendable () async throws -> Void) {
        withState { AsyncJobsModel.of($0).adopting = thread }
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: ExplorerExecutor.shared) {
            do { try await body() } catch { self.record(error, of: thread) }
            self.withState { $0.finish(thread) }
            done.signal()
        }
        // The task's start is now the thread's point: give the baton back until it is chosen.
        lock.lock()
        precondition(state.pending[thread] is JobPoint, "the thread's task did not reach the explorer")
        takeBack()
        lock.unlock()
        done.wait()
    }
}

import Synchronization

/// The hook bound (as `Race.hook`) on one logical thread: each window or step it reaches becomes a
/// scheduling point of its execution.
///
/// Primitives reach the execution through it: they pause the thread at a point of their own
/// (`pause(at:)`), update their model (`withState`), or start threads (`spawn`). It knows no
/// primitive itself.
final class LogicalThread: HandOffThread, @unchecked Sendable {
    let id: Int
    let execution: ControlledExecution

    init(id: Int, execution: ControlledExecution) {
        self.id = id
        self.execution = execution
        HandOffThreads.alive.add(1, ordering: .relaxed)
    }

    deinit {
        HandOffThreads.alive.subtract(1, ordering: .relaxed)
    }

    /// False when no code in the process runs under the explorer; true means `current` may be set.
    /// Logical threads are counted (`HandOffThreads`), so that a primitive on a hot path skips the
    /// task-local lookup and the cast of `current` with one relaxed load when none exists (the
    /// stress runner's process): the cast of a noise hook to this class is a dynamic cast, dearer
    /// than a queue's `async`.
    static var mayExist: Bool {
        HandOffThreads.mayExist
    }

    /// The logical thread the caller runs on, if it runs under the explorer. In an execution that
    /// schedules jobs that is the current task's thread: a `Task { }` inherits its creator's hook,
    /// but it is a thread of its own.
    static var current: LogicalThread? {
        guard mayExist, let bound = Race.hook as? LogicalThread else { return nil }
        return bound.execution.schedulesJobs ? AsyncJobs.currentThread() ?? bound : bound
    }

    /// A mark (`Race.window`, `Race.step`) is a scheduling point unless marks are off.
    func windowReached(_ name: StaticString) {
        windowReached(name, on: nil)
    }

    func stepReached(_ name: StaticString) {
        stepReached(name, on: nil)
    }

    func windowReached(_ name: StaticString, on object: AnyObject?) {
        markReached(name, Footprint(object: object))
    }

    func stepReached(_ name: StaticString, on object: AnyObject?) {
        markReached(name, Footprint(object: object))
    }

    func windowReached(_ name: StaticString, reading object: AnyObject) {
        markReached(name, Footprint(object: object, access: .read))
    }

    func stepReached(_ name: StaticString, reading object: AnyObject) {
        markReached(name, Footprint(object: object, access: .read))
    }

    private func markReached(_ name: StaticString, _ footprint: Footprint) {
        guard execution.marks else { return }
        // In an execution that schedules jobs, the mark may be reached in a task this thread started.
        let thread = execution.schedulesJobs ? Self.current ?? self : self
        thread.pause(at: PlainPoint(name: name.description, footprint: footprint))
    }

    /// The first failure seen in an execution is kept with the step that saw it (in a task this
    /// thread started, when jobs are steps: that task's thread).
    func failureSeen(_ what: () -> String) {
        let thread = execution.schedulesJobs ? Self.current ?? self : self
        execution.noteFailureSeen(what, by: thread.id)
    }

    /// Gives the baton back in front of `point` and waits until the controller chooses this thread.
    func pause(at point: any SchedulingPoint) {
        execution.pause(id, at: point)
    }

    /// Runs `body` on the execution's state, under its lock (a model update that is no step: a
    /// lock's release, a work item that ended).
    func withState<Result>(_ body: (ExecutionState) -> Result) -> Result {
        execution.withState(body)
    }

    /// True once the execution is being drained after a deadlock or the step bound: primitives no
    /// longer exclude.
    var isFreeRunning: Bool {
        withState { $0.freeRunning }
    }

    /// A new logical thread of the same execution, started by this one, paused before `first`.
    /// `makeFirst` gets the new thread's id (a queue item records its owner).
    func spawn(
        _ name: String,
        first makeFirst: (_ thread: Int, ExecutionState) -> any SchedulingPoint
    ) -> LogicalThread {
        let thread = withState { state in
            state.addThread(by: id, name: name, first: makeFirst(state.threadCount, state))
        }
        return LogicalThread(id: thread, execution: execution)
    }

    /// Runs `body`, then `last`, on a real thread of its own (a parked one, `ParkedThreads`) once
    /// this thread, just spawned, is first chosen; returns at once. `body` begins with `begin()`.
    func start(_ body: @escaping @Sendable () -> Void, last: @escaping @Sendable () -> Void) {
        execution.start(id, body, last: last)
    }

    // MARK: - HandOffThread

    /// A new logical thread of the same execution, started by this one (see `RaceHandOff`). It is
    /// runnable at once: its first step, named `name`, is entering its body.
    func spawn(_ name: String) -> any HandOffThread {
        spawn(name) { _, _ in PlainPoint(name: name) }
    }

    func begin() {
        execution.awaitTurn(id)
    }

    func end() {
        execution.finish(id)
    }

    func join(_ thread: any HandOffThread, name: String) {
        guard let thread = thread as? LogicalThread else {
            preconditionFailure("a logical thread can only join a thread of its own execution")
        }
        pause(at: ThreadJoin(thread: thread.id, name: name))
    }
}

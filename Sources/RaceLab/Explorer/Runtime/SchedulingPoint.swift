/// What a logical thread is paused in front of: the operation it performs first when it is chosen.
///
/// Each primitive defines its own points next to its model (`LockAcquire` beside `LockModel`,
/// `QueueItemStart` beside `QueueModel`), and a point answers for itself, from the models in the
/// execution's state, whether its thread can go on, who keeps it waiting, and what choosing it
/// changes. The controller only asks; it knows no primitive, so adding one touches no switch.
///
/// Every method is called with the execution's lock held, from the controller's thread.
protocol SchedulingPoint {
    /// Shown in schedules and deadlock reports: `set contents`, `lock first`, `sync documents`.
    var name: String { get }

    /// Whether `thread`, paused here, can perform the operation now. A point that cannot is not
    /// offered to the strategy; when no thread can, the execution has deadlocked.
    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool

    /// The thread that keeps this point from proceeding, when known (shown in a deadlock).
    func holder(in state: ExecutionState) -> Int?

    /// Updates the models for `thread` performing the operation: called once, when it is chosen,
    /// before the thread is resumed.
    func chosen(by thread: Int, in state: ExecutionState)

    /// The thread that must have finished before this one can go on even while a deadlocked
    /// execution is drained (a join blocks for real; a lock no longer excludes then).
    var awaitedThread: Int? { get }

    /// What the operation touches, for partial-order reduction (see `Footprint`): the primitive's
    /// object; `everything`, the safe default, for a point that cannot say.
    var footprint: Footprint { get }
}

extension SchedulingPoint {
    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool { true }
    func holder(in state: ExecutionState) -> Int? { nil }
    func chosen(by thread: Int, in state: ExecutionState) {}
    var awaitedThread: Int? { nil }
    var footprint: Footprint { .everything }
}

/// A race window or a synchronization step (`Race.window`, `Race.step`), or entering the body of a
/// spawned thread: always able to go on, and changing no model. It touches the object it was
/// marked `on:`, or everything when it names none.
struct PlainPoint: SchedulingPoint {
    let name: String
    var footprint: Footprint = .everything
}

/// The explorer's model of one synchronization object (a lock, a queue) during one execution: the
/// state that decides which of the threads paused at its points can go on.
///
/// Models live in the execution's state, keyed by the object, and start fresh with every execution,
/// so an object that outlives one (a process-wide queue) starts each schedule from the same state.
protocol ModelObject: AnyObject {}

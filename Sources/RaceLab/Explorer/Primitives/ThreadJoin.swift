/// Waiting for logical thread `thread` to finish (`value` of a `RaceTask`, the end of a hand-off's
/// work): able to go on once it has.
///
/// The hand-offs' only rule. Their model is which threads have finished, which the execution's
/// state keeps for every thread, so they need no model object of their own.
struct ThreadJoin: SchedulingPoint {
    let thread: Int
    let name: String

    func canProceed(_ waiter: Int, in state: ExecutionState) -> Bool {
        state.isFinished(thread)
    }

    func holder(in state: ExecutionState) -> Int? {
        thread
    }

    var awaitedThread: Int? { thread }

    /// Dependent on every step of the awaited thread, whose last step ends it.
    var footprint: Footprint { Footprint(.thread(thread)) }
}

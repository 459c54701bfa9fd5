/// The explorer's model of one `RaceLock` during an execution: who holds it.
final class LockModel: ModelObject {
    private(set) var holder: Int?

    /// `thread` unlocks. Only the holder releases it, except while a deadlocked execution is
    /// drained, when locks no longer exclude and any unlock frees it.
    func release(by thread: Int, in state: ExecutionState) {
        if holder == thread || state.freeRunning { holder = nil }
    }

    fileprivate func acquire(by thread: Int) {
        holder = thread
    }
}

/// Taking a `RaceLock`: able to go on only while no thread holds it.
struct LockAcquire: SchedulingPoint {
    let lock: ObjectIdentifier
    /// `lock <name>`.
    let name: String

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        model(in: state).holder == nil
    }

    func holder(in state: ExecutionState) -> Int? {
        model(in: state).holder
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        model(in: state).acquire(by: thread)
    }

    var footprint: Footprint { Footprint(.object(lock)) }

    private func model(in state: ExecutionState) -> LockModel {
        state.model(of: lock, LockModel.init)
    }
}

/// The explorer's model of one `RaceRecursiveLock` during an execution: who holds it, how many
/// times.
final class RecursiveLockModel: ModelObject {
    private(set) var holder: Int?
    private(set) var depth = 0

    /// `thread` takes the lock again, which it already holds: no other thread can tell, so this is
    /// no scheduling point.
    func reenter(by thread: Int) -> Bool {
        guard holder == thread else { return false }
        depth += 1
        return true
    }

    /// `thread` unlocks once; the lock is free when it has unlocked as often as it locked. Only the
    /// holder releases it, except while a deadlocked execution is drained, when any unlock frees it.
    func release(by thread: Int, in state: ExecutionState) {
        if state.freeRunning {
            holder = nil
            depth = 0
        } else if holder == thread {
            depth -= 1
            if depth == 0 { holder = nil }
        }
    }

    fileprivate func acquire(by thread: Int) {
        holder = thread
        depth = 1
    }
}

/// Taking a `RaceRecursiveLock` that the thread does not hold yet: able to go on only while no
/// thread holds it.
struct RecursiveLockAcquire: SchedulingPoint {
    let lock: ObjectIdentifier
    /// `lock <name>`.
    let name: String

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        let holder = model(in: state).holder
        return holder == nil || holder == thread
    }

    func holder(in state: ExecutionState) -> Int? {
        model(in: state).holder
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        let model = model(in: state)
        if !model.reenter(by: thread) { model.acquire(by: thread) }
    }

    var footprint: Footprint { Footprint(.object(lock)) }

    private func model(in state: ExecutionState) -> RecursiveLockModel {
        state.model(of: lock, RecursiveLockModel.init)
    }
}

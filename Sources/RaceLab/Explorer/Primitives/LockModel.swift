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

    /// Releases the lock `lock` (a `RaceLock`, a `RaceMutex`): on a logical thread of the explorer
    /// its model, which that thread must hold; elsewhere the real lock, with `unlock`.
    static func unlock(_ lock: ObjectIdentifier, otherwise unlock: () -> Void) {
        guard let logical = LogicalThread.current else { return unlock() }
        logical.withState { state in state.model(of: lock, LockModel.init).release(by: logical.id, in: state) }
    }
}

/// `Cache.swift:12`: the name of a primitive made at `line` of `fileID`, for the initialisers that
/// stand in for `NSLock()` and `Mutex(_:)` (see `Examples/RaceLabSwitch`).
func primitiveName(fileID: String, line: Int) -> String {
    (fileID.split(separator: "/").last.map(String.init) ?? fileID) + ":\(line)"
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

/// Trying to take a lock without waiting (`withLockIfAvailable`, `lockIfAvailable()`): always able
/// to go on; when chosen it takes the lock if no thread holds it, and records whether it did.
struct LockAttempt: SchedulingPoint {
    let lock: ObjectIdentifier
    /// `try lock <name>`.
    let name: String
    /// Where the answer goes, read by the thread once it is resumed.
    let taken: AttemptAnswer

    func chosen(by thread: Int, in state: ExecutionState) {
        let model = state.model(of: lock, LockModel.init)
        taken.value = model.holder == nil
        if taken.value { model.acquire(by: thread) }
    }

    var footprint: Footprint { Footprint(.object(lock)) }
}

/// Whether an operation that may fail without waiting succeeded (a `LockAttempt`, a wait with a
/// timeout): written by the controller when the point is chosen, read by the thread after it is
/// resumed (the execution's lock orders the two).
final class AttemptAnswer: @unchecked Sendable {
    var value = false
}

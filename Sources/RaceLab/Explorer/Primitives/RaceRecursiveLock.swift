import Foundation

/// A recursive lock that the schedule explorer can see: `NSRecursiveLock`'s shape.
///
/// The thread that holds it may take it again, and must unlock it as many times as it locked it
/// before another thread can take it. Outside exploration it is an `NSRecursiveLock`. On a logical
/// thread of the explorer, taking it when the thread does not hold it yet is a scheduling point
/// (`lock <name>`), and a thread waiting for it while another holds it is not runnable, as with
/// `RaceLock`; taking it again while holding it is no point (no other thread can tell the
/// difference).
///
/// Unlocking a lock the thread does not hold is a programming error with `NSRecursiveLock`; the
/// explorer ignores such an unlock rather than guess.
public final class RaceRecursiveLock: RaceLocking, @unchecked Sendable {
    /// Shown in schedules: `lock <name>`.
    public let name: String
    private let mutex = NSRecursiveLock()

    /// A recursive lock shown in schedules as `lock <name>`.
    public init(_ name: String) {
        self.name = name
    }

    /// Takes the lock, waiting while another thread holds it; its holder takes it again at once.
    /// A first acquisition on a logical thread of the explorer is a scheduling point; a nested one is not.
    public func lock() {
        guard let logical = LogicalThread.current else { return mutex.lock() }
        let id = ObjectIdentifier(self)
        let reentered = logical.withState { state in
            state.model(of: id, RecursiveLockModel.init).reenter(by: logical.id)
        }
        if !reentered { logical.pause(at: RecursiveLockAcquire(lock: id, name: "lock \(name)")) }
    }

    /// Releases one acquisition; the lock is free once its holder unlocked it as often as it locked it.
    public func unlock() {
        guard let logical = LogicalThread.current else { return mutex.unlock() }
        logical.withState { state in
            state.model(of: ObjectIdentifier(self), RecursiveLockModel.init).release(by: logical.id, in: state)
        }
    }
}

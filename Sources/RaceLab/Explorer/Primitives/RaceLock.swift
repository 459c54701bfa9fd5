import Foundation

/// A mutual-exclusion lock that the schedule explorer can see.
///
/// Like loom's and Shuttle's replacement types: outside exploration it is an `NSLock` and costs one
/// task-local read more. On a logical thread of the explorer, `lock()` is a scheduling point and
/// the explorer, not the OS, decides who gets the lock: a thread waiting for a lock another thread
/// holds is not runnable, and when no thread is runnable the explorer reports a deadlock with each
/// thread's position instead of hanging.
///
/// Not recursive: taking it twice on one thread deadlocks, as `NSLock` does.
public final class RaceLock: RaceLocking, @unchecked Sendable {
    /// Shown in schedules: `lock <name>`.
    public let name: String
    private let mutex = NSLock()

    /// A lock shown in schedules as `lock <name>`.
    public init(_ name: String) {
        self.name = name
    }

    /// Takes the lock, waiting while another thread holds it.
    /// On a logical thread of the explorer this is a scheduling point, and the explorer decides who
    /// gets the lock; elsewhere it is `NSLock.lock()`.
    public func lock() {
        if let logical = LogicalThread.current {
            logical.pause(at: LockAcquire(lock: ObjectIdentifier(self), name: "lock \(name)"))
        } else {
            mutex.lock()
        }
    }

    /// Releases the lock, which the calling thread must hold. Not a scheduling point.
    public func unlock() {
        LockModel.unlock(ObjectIdentifier(self)) { mutex.unlock() }
    }
}

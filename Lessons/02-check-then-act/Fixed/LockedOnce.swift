import Foundation
import RaceLab

/// The check and the set under one lock: no thread can check while another is between its check
/// and its set.
///
/// `execute()` runs while the lock is held, so a caller that returns knows the work has been done
/// (by itself or by whoever got there first), the promise `dispatch_once` makes. The price: `execute`
/// must not call `run` on the same object again, because `NSLock` is not recursive.
public final class LockedOnce: @unchecked Sendable {
    /// A `RaceLock`: an `NSLock` whose waits the schedule explorer sees.
    private let lock = RaceLock("once")
    /// Guarded by `lock`. Read without it only by the schedule explorer's state line, between
    /// steps, while every thread is paused (one of them may hold the lock).
    private(set) var didExecute = false

    public init() {}

    /// Runs `execute` unless some call already did; returns after it ran.
    public func run(_ execute: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !didExecute else { return }
        execute()
        didExecute = true
    }
}

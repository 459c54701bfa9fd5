import Foundation

/// An `NSLock` that tells a `WaitMeter` whether each acquisition found it already held.
///
/// `try()` first, then `lock()`: the only extra cost of measuring is one failed `try` on contention.
/// `NSLock` rather than `Synchronization.Mutex`, which ThreadSanitizer cannot see on Linux.
final class MeteredLock: @unchecked Sendable {
    private let lock = NSLock()

    /// Runs `body` holding the lock. Never call out to unknown code (observers, user blocks) in
    /// `body`: code that takes another lock, or waits for a thread that wants this one, deadlocks.
    func withLock<T>(meter: WaitMeter? = nil, _ body: () throws -> T) rethrows -> T {
        if lock.try() {
            meter?.record(waited: false)
        } else {
            meter?.record(waited: true)
            lock.lock()
        }
        defer { lock.unlock() }
        return try body()
    }
}

import Foundation

/// A value behind a lock, reached only through `withLockedValue`, so that a whole read-modify-write
/// happens under one acquisition and the lock itself is never visible to callers.
///
/// The shape is swift-nio's `NIOLockedValueBox`. The lock is an `NSLock` rather than
/// `Synchronization.Mutex` on purpose: ThreadSanitizer on Linux does not see `Mutex`'s futex and
/// reports false races through it, while it understands `NSLock` (a pthread mutex). RaceLab's own
/// bookkeeping must stay invisible to TSan, or a TSan run of a correct variant would fail.
///
/// There is deliberately no setter: `box.value += 1` through a getter and a setter would be two
/// acquisitions and exactly the lost update RaceLab's first lesson teaches.
public final class LockedValueBox<Value> {
    private let lock = NSLock()
    private var storage: Value

    /// A box holding `value`.
    public init(_ value: Value) {
        storage = value
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    ///
    /// - Note: `body` must not call back into the same box: the lock is not recursive.
    @inlinable
    public func withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try _withLockedValue(body)
    }

    @usableFromInline
    func _withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&storage)
    }

    /// A copy of the value as it is now (one acquisition). Never use it to compute a new value to
    /// store: that is a read-modify-write in two steps; use `withLockedValue`.
    public var value: Value {
        withLockedValue { $0 }
    }
}

extension LockedValueBox: @unchecked Sendable where Value: Sendable {}

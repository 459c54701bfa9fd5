import Foundation

/// A lock that owns the value it guards, that the schedule explorer can see: `Mutex`'s shape
/// (Synchronization) and `OSAllocatedUnfairLock`'s (os, on Darwin).
///
/// The value is reached only inside `withLock`, as with `Mutex`, so it is never touched without
/// the lock. Outside exploration the lock is an `NSLock` (ThreadSanitizer sees it; it reports
/// false races on `Mutex` on Linux). On a logical thread of the explorer, taking it is a
/// scheduling point (`lock <name>`) with `RaceLock`'s model (`LockModel`): a thread that waits
/// for it while another holds it is not runnable, and a cycle of waits is reported as a deadlock.
///
/// Unlike `Mutex` it is a class: copies of it are one lock, where a `Mutex` cannot be copied. The
/// value must be copyable.
public final class RaceMutex<Value>: @unchecked Sendable {
    /// Shown in schedules: `lock <name>`.
    public let name: String
    private let mutex = NSLock()
    /// Guarded by the lock.
    private var value: Value

    /// A lock guarding `initialValue`, named `name` in schedules.
    public init(_ initialValue: Value, name: String) {
        self.value = initialValue
        self.name = name
    }

    /// `Mutex(_:)`: a lock guarding `initialValue`, named after the line that makes it
    /// (`Cache.swift:12`).
    public convenience init(_ initialValue: Value, fileID: String = #fileID, line: Int = #line) {
        self.init(initialValue, name: primitiveName(fileID: fileID, line: line))
    }

    /// `OSAllocatedUnfairLock(initialState:)`.
    public convenience init(initialState: Value, fileID: String = #fileID, line: Int = #line) {
        self.init(initialState, name: primitiveName(fileID: fileID, line: line))
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    /// `OSAllocatedUnfairLock.withLockUnchecked(_:)`: `withLock`.
    public func withLockUnchecked<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withLock(body)
    }

    /// Runs `body` with the value if the lock is free now, without waiting; nil when another
    /// thread holds it. Under the explorer the attempt is a scheduling point (`try lock <name>`):
    /// the search tries it both while the lock is free and while it is held.
    public func withLockIfAvailable<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard lockIfAvailable() else { return nil }
        defer { unlock() }
        return try body(&value)
    }

    /// Takes the lock, waiting while another thread holds it (`OSAllocatedUnfairLock.lock()`).
    public func lock() {
        if let logical = LogicalThread.current {
            logical.pause(at: LockAcquire(lock: ObjectIdentifier(self), name: "lock \(name)"))
        } else {
            mutex.lock()
        }
    }

    /// Takes the lock if it is free now; false when another thread holds it.
    public func lockIfAvailable() -> Bool {
        guard let logical = LogicalThread.current else { return mutex.try() }
        return logical.attempt { LockAttempt(lock: ObjectIdentifier(self), name: "try lock \(name)", taken: $0) }
    }

    /// Releases the lock.
    public func unlock() {
        LockModel.unlock(ObjectIdentifier(self)) { mutex.unlock() }
    }
}

extension RaceMutex where Value == Void {
    /// `OSAllocatedUnfairLock()`: a lock that guards no value.
    public convenience init(fileID: String = #fileID, line: Int = #line) {
        self.init((), name: primitiveName(fileID: fileID, line: line))
    }
}

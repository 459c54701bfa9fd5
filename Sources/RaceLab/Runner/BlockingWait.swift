import Foundation

/// Runs async work to completion from synchronous code, blocking the calling thread.
///
/// Only for threads outside Swift's cooperative pool (the runner's own thread): blocking a pool
/// thread on work that needs the pool is how a 2-core machine deadlocks. The task is detached so
/// that it never inherits the main actor from top-level code, which would wait on the very thread
/// this function blocks.
func waitForTask<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
    let done = DispatchSemaphore(value: 0)
    let box = LockedBox<T?>(nil)
    Task.detached {
        let value = await work()
        box.set(value)
        done.signal()
    }
    done.wait()
    return box.get()!
}

/// A value behind an `NSLock`, for handing results between threads.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set(_ newValue: Value) {
        lock.lock()
        defer { lock.unlock() }
        value = newValue
    }
}

import Dispatch

/// A counting semaphore that the schedule explorer can see: `DispatchSemaphore`'s shape.
///
/// Outside exploration it is a `DispatchSemaphore`. On a logical thread of the explorer its count
/// is modelled (`SemaphoreModel`): `wait()` is a scheduling point (`wait <name>`) that cannot go on
/// while the count is zero, so a thread that waits for a signal no thread will send is reported in
/// a deadlock instead of hanging; `signal()` is part of the step that calls it. A wait with a
/// timeout is a point that can always go on: when the search chooses it while the count is zero,
/// it times out (the explorer does not model time, so it tries both endings where both can
/// happen).
public final class RaceSemaphore: @unchecked Sendable {
    /// Shown in schedules: `wait <name>`.
    public let name: String
    /// The real semaphore, used outside exploration.
    public let dispatchSemaphore: DispatchSemaphore
    private let value: Int

    /// A semaphore with count `value`, named `name` in schedules.
    public init(value: Int, name: String) {
        self.value = value
        self.name = name
        dispatchSemaphore = DispatchSemaphore(value: value)
    }

    /// `DispatchSemaphore(value:)`: named after the line that makes it (`Cache.swift:12`).
    public convenience init(value: Int, fileID: String = #fileID, line: Int = #line) {
        self.init(value: value, name: primitiveName(fileID: fileID, line: line))
    }

    /// Takes one from the count, waiting while it is zero.
    public func wait() {
        guard let logical = LogicalThread.current else { return dispatchSemaphore.wait() }
        logical.pause(at: SemaphoreWait(semaphore: ObjectIdentifier(self), value: value, name: "wait \(name)"))
    }

    /// Takes one from the count, waiting at most until `timeout`. Under the explorer a timeout of
    /// `.distantFuture` is `wait()`; any other may time out, when the count is zero where the
    /// search runs it.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        guard let logical = LogicalThread.current else { return dispatchSemaphore.wait(timeout: timeout) }
        return logical.timedWait(
            timeout,
            wait: { wait() },
            at: { answer in
                SemaphoreWait(
                    semaphore: ObjectIdentifier(self),
                    value: value,
                    name: "wait \(name) (timeout)",
                    answer: answer
                )
            }
        )
    }

    /// `wait(timeout:)` with a wall-clock deadline.
    public func wait(wallTimeout: DispatchWallTime) -> DispatchTimeoutResult {
        guard LogicalThread.current != nil else { return dispatchSemaphore.wait(wallTimeout: wallTimeout) }
        return wait(timeout: wallTimeout == .distantFuture ? .distantFuture : .now())
    }

    /// Adds one to the count, waking a waiter. Outside exploration it returns what
    /// `DispatchSemaphore.signal()` returns (nonzero when a thread was woken); under the explorer,
    /// whose model keeps no list of waiters, 0.
    @discardableResult
    public func signal() -> Int {
        guard let logical = LogicalThread.current else { return dispatchSemaphore.signal() }
        logical.withState { state in
            state.model(of: ObjectIdentifier(self)) { SemaphoreModel(value: value) }.signal()
        }
        return 0
    }
}

import Dispatch

/// A dispatch queue that the schedule explorer can see.
///
/// Outside exploration it is a `DispatchQueue` and each call forwards to it (plus one task-local
/// read). On a logical thread of the explorer, the queue is modelled instead, with libdispatch's
/// rules (see `QueueModel`), and the explorer decides when each work item runs:
/// - `sync` submits an item and pauses the caller until the queue would start it (a scheduling
///   point named `sync <label>`), then runs it on the caller's thread, as libdispatch does;
/// - `async` submits an item that a new logical thread runs (first step `<label> item`, or
///   `<label> barrier`); the caller goes on at once.
///
/// So windows inside work items are scheduling points like any other, a barrier really holds back
/// what comes after it, and a `sync` onto the serial queue the caller is running on is reported as
/// the deadlock it is.
///
/// Outside exploration, an `async` work item runs with the submitter's race-window hook bound, the
/// way a child task inherits task-locals, so the stress runner's noise reaches the windows inside
/// it (with a plain `DispatchQueue` it would not).
public final class RaceQueue: @unchecked Sendable {
    /// The queue's label, used in schedules.
    public let label: String
    /// The real queue, for APIs that take one (`group.notify(queue:)`); work submitted to it
    /// directly is invisible to the explorer.
    public let dispatchQueue: DispatchQueue
    private let serial: Bool

    public init(label: String, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        serial = !attributes.contains(.concurrent)
        dispatchQueue = DispatchQueue(label: label, attributes: attributes)
    }

    /// Runs `work` as a work item and waits for it, like `DispatchQueue.sync(flags:execute:)`.
    public func sync<Result>(flags: DispatchWorkItemFlags = [], execute work: () throws -> Result) rethrows -> Result {
        guard let logical = Race.hook as? LogicalThread else {
            return try dispatchQueue.sync(flags: flags, execute: work)
        }
        let barrier = flags.contains(.barrier)
        return try logical.runItem(
            of: ObjectIdentifier(self), serial: serial, barrier: barrier,
            name: barrier ? "sync barrier \(label)" : "sync \(label)", work
        )
    }

    /// Submits `work` and returns at once, like `DispatchQueue.async(flags:execute:)`.
    public func async(flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void) {
        guard let logical = Race.hook as? LogicalThread else {
            let hook = Race.hook
            dispatchQueue.async(flags: flags) { Race.$hook.withValue(hook, operation: work) }
            return
        }
        let barrier = flags.contains(.barrier)
        logical.submitItem(
            to: ObjectIdentifier(self), serial: serial, barrier: barrier,
            name: barrier ? "\(label) barrier" : "\(label) item", work
        )
    }
}

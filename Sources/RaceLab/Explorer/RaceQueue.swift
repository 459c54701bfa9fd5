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
/// the deadlock it is. The items still run inside the real queue too, so a queue shared with code
/// outside the exploration (a process-wide one) still excludes it.
///
/// Outside exploration, an `async` work item runs with the submitter's race-window hook bound, the
/// way a child task inherits task-locals, so the stress runner's noise reaches the windows inside
/// it (with a plain `DispatchQueue` it would not).
public final class RaceQueue: @unchecked Sendable {
    /// The queue's label. Schedules name the queue by its last dot-separated part (`documents` for
    /// `racelab.persistent-data-store.documents`), to keep timelines narrow.
    public let label: String
    /// The real queue, for APIs that take one (`group.notify(queue:)`); work submitted to it
    /// directly is invisible to the explorer.
    public let dispatchQueue: DispatchQueue
    let isSerial: Bool

    /// `qos` only reaches the real queue: the explorer's schedules do not depend on it.
    public init(label: String, qos: DispatchQoS = .unspecified, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        isSerial = !attributes.contains(.concurrent)
        dispatchQueue = DispatchQueue(label: label, qos: qos, attributes: attributes)
    }

    /// Runs `work` as a work item and waits for it, like `DispatchQueue.sync(flags:execute:)`.
    public func sync<Result>(flags: DispatchWorkItemFlags = [], execute work: () throws -> Result) rethrows -> Result {
        guard let logical = Race.hook as? LogicalThread else {
            return try dispatchQueue.sync(flags: flags, execute: work)
        }
        let barrier = flags.contains(.barrier)
        return try logical.runItem(
            of: self,
            barrier: barrier,
            name: barrier ? "sync barrier \(shortName)" : "sync \(shortName)"
        ) {
            try RaceQueueContext.$running.withValue(
                RaceQueueContext.running + [ObjectIdentifier(self)],
                operation: work
            )
        }
    }

    /// Submits `work` and returns at once, like `DispatchQueue.async(flags:execute:)`.
    public func async(flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable () -> Void) {
        guard let logical = Race.hook as? LogicalThread else {
            let item = Race.handOff("queue item")
            dispatchQueue.async(flags: flags) { item.run(work) }
            return
        }
        let barrier = flags.contains(.barrier)
        logical.submitItem(to: self, barrier: barrier, name: barrier ? "\(shortName) barrier" : "\(shortName) item") {
            [id = ObjectIdentifier(self)] in
            // A new thread, on this queue only: nothing of the submitter's queues carries over.
            RaceQueueContext.$running.withValue([id], operation: work)
        }
    }

    private var shortName: String {
        label.split(separator: ".").last.map(String.init) ?? label
    }

    /// Stops the program unless the caller is running a work item of this queue, like
    /// `dispatchPrecondition(condition: .onQueue(queue))`, for state confined to the queue.
    ///
    /// Outside exploration it is exactly that call on `dispatchQueue`. On a logical thread of the
    /// explorer, a work item of this queue runs on the thread that called `sync` (or on the thread
    /// an `async` started), and not inside the real queue while the explorer drains a deadlocked
    /// execution, so the check is the model's: the caller must be
    /// inside an item of this queue, run by this logical thread, either directly or with a `sync`
    /// onto another queue nested in it (libdispatch counts that too). An `async` item starts with
    /// only its own queue.
    public func preconditionOnQueue(file: StaticString = #fileID, line: UInt = #line) {
        guard Race.hook is LogicalThread else {
            dispatchPrecondition(condition: .onQueue(dispatchQueue))
            return
        }
        precondition(
            RaceQueueContext.running.contains(ObjectIdentifier(self)),
            "not on a work item of \(label)",
            file: file,
            line: line
        )
    }
}

/// The `RaceQueue`s whose work items the current logical thread is inside, innermost last. Only
/// bound under the explorer, where items run on logical threads instead of the real queues.
private enum RaceQueueContext {
    @TaskLocal static var running: [ObjectIdentifier] = []
}

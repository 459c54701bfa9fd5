import Foundation

/// A dispatch queue that the schedule explorer can see.
///
/// Outside exploration it is a `DispatchQueue` and each call forwards to it (plus one task-local
/// read). On a logical thread of the explorer, the queue is modelled instead, with libdispatch's
/// rules (see `QueueModel`), and the explorer decides when each work item runs:
/// - `sync` submits an item and pauses the caller until the queue would start it (a scheduling
///   point named `sync <label>`), then runs it on the caller's thread, as libdispatch does;
/// - `async` submits an item that a new logical thread runs (first step `<label> item`, or
///   `<label> barrier` on a concurrent queue); the caller goes on at once. The submission itself is
///   a point too (`async <label>`, `async barrier <label>`), so that the explorer can put another
///   thread's calls between a `sync` and the `async` that follows it (a value read with `sync`, then
///   written back with an `async` barrier, loses another thread's write in between). Only an
///   exploration that declares its marks name every window (`Exploration.markingEveryWindow()`),
///   explored with marks on, leaves the submission inside the step of the code before it.
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

    /// `DispatchQueue.Attributes`, so that code that names it through `RaceQueue` (the RaceLab
    /// switch, `Examples/RaceLabSwitch`) compiles unchanged.
    public typealias Attributes = DispatchQueue.Attributes

    /// `qos` only reaches the real queue: the explorer's schedules do not depend on it.
    public init(label: String, qos: DispatchQoS = .unspecified, attributes: DispatchQueue.Attributes = []) {
        self.label = label
        isSerial = !attributes.contains(.concurrent)
        dispatchQueue = DispatchQueue(label: label, qos: qos, attributes: attributes)
    }

    /// Runs `work` as a work item and waits for it, like `DispatchQueue.sync(flags:execute:)`.
    public func sync<Result>(flags: DispatchWorkItemFlags = [], execute work: () throws -> Result) rethrows -> Result {
        guard let logical = LogicalThread.current else {
            return try dispatchQueue.sync(flags: flags, execute: work)
        }
        let barrier = flags.contains(.barrier)
        return try runItem(
            on: logical,
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
    ///
    /// - Parameters:
    ///   - flags: as for `DispatchQueue`; `.barrier` makes the item run alone on the queue.
    ///   - firstStep: under the explorer, what the item does before its first scheduling point
    ///     (`encode, stage chunk 1`), shown as the name of its first step; nil shows the item's own name
    ///     (`documents item`), which always names its thread.
    ///   - work: the item's work.
    public func async(
        flags: DispatchWorkItemFlags = [],
        firstStep: String? = nil,
        execute work: @escaping @Sendable () -> Void
    ) {
        guard let logical = LogicalThread.current else {
            let item = Race.handOff("queue item")
            dispatchQueue.async(flags: flags) { item.run(work) }
            return
        }
        let barrier = flags.contains(.barrier)
        if !logical.execution.windowsMarked {
            // Where the submission falls among other threads' calls decides what the item sees (a
            // get's `sync`, then the set's barrier). Only marks declared to name every window
            // (`Exploration.markingEveryWindow()`) make it part of the step before it.
            logical.pause(
                at: PlainPoint(
                    name: barrier ? "async barrier \(shortName)" : "async \(shortName)",
                    footprint: Footprint(.object(model), access(barrier))
                )
            )
        }
        submitItem(
            by: logical,
            barrier: barrier,
            // A serial queue runs every item alone: a barrier flag adds nothing there (`.barrier`
            // on the main queue is an ordinary `async`), so its item is named like any other.
            name: barrier && !isSerial ? "\(shortName) barrier" : "\(shortName) item",
            firstStep: firstStep
        ) {
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
        guard LogicalThread.current != nil else {
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

// MARK: - Under the explorer

extension RaceQueue {
    private var model: ObjectIdentifier { ObjectIdentifier(self) }

    /// Runs `work` as a work item of this queue on `logical` (`sync`): pauses until the queue would
    /// start an item submitted now (the controller then submits and starts it), runs it, and marks
    /// it done.
    ///
    /// The item joins the queue only when the thread is chosen, not when it reached the call: a
    /// caller that waits is indistinguishable from one that called later, so this loses no
    /// outcome, and it lets the explorer try every order of the callers.
    ///
    /// The item also runs inside the real queue (`dispatchQueue`), so that it excludes threads outside the
    /// exploration too (another test using a process-wide queue). That never blocks behind another
    /// logical thread: the model starts an item only when the real queue would admit it.
    fileprivate func runItem<Result>(
        on logical: LogicalThread,
        barrier: Bool,
        name: String,
        _ work: () throws -> Result
    ) rethrows -> Result {
        logical.pause(at: QueueSyncCall(queue: model, serial: isSerial, barrier: barrier, name: name))
        // Nil while draining after a deadlock, when queues no longer exclude (nor the real one,
        // which a thread paused inside an item may hold).
        let item = logical.withState { state in
            state.model(of: model, access: access(barrier)) { QueueModel(serial: isSerial) }.takeSyncItem(
                of: logical.id
            )
        }
        guard let item else { return try work() }
        defer { itemDone(item, barrier: barrier, on: logical) }
        return try dispatchQueue.sync(flags: barrier ? .barrier : [], execute: work)
    }

    /// Submits `work` as an item run by a new logical thread (`async`) started by `submitter`, on a
    /// real thread of its own once it is chosen (a parked one, `ParkedThreads`; inside the real
    /// queue, as for `runItem`); returns at once.
    fileprivate func submitItem(
        by submitter: LogicalThread,
        barrier: Bool,
        name: String,
        firstStep: String? = nil,
        _ work: @escaping @Sendable () -> Void
    ) {
        var item = 0
        let child = submitter.spawn(name) { thread, state in
            item = state.model(of: model, access: access(barrier)) { QueueModel(serial: isSerial) }
                .submit(barrier: barrier, owner: thread)
            return QueueItemStart(
                queue: model,
                serial: isSerial,
                barrier: barrier,
                item: item,
                name: firstStep ?? name
            )
        }
        child.start { [item] in
            child.begin()
            Race.$hook.withValue(child) {
                if child.isFreeRunning {
                    work()
                } else {
                    self.dispatchQueue.sync(flags: barrier ? .barrier : [], execute: work)
                }
            }
            self.itemDone(item, barrier: barrier, on: child)
        } last: {
            child.end()
        }
    }

    private func itemDone(_ item: Int, barrier: Bool, on logical: LogicalThread) {
        logical.withState { state in
            state.model(of: model, access: access(barrier)) { QueueModel(serial: isSerial) }.setState(.done, of: item)
        }
    }

    /// How an item's steps touch this queue's model (see `QueueModel.access`).
    private func access(_ barrier: Bool) -> Footprint.Access {
        QueueModel.access(serial: isSerial, barrier: barrier)
    }
}

/// The `RaceQueue`s whose work items the current logical thread is inside, innermost last. Only
/// bound under the explorer, where items run on logical threads instead of the real queues.
private enum RaceQueueContext {
    @TaskLocal static var running: [ObjectIdentifier] = []
}

import Dispatch

/// A group of work items that the schedule explorer can see: `DispatchGroup`'s shape.
///
/// Outside exploration it is a `DispatchGroup`. On a logical thread of the explorer the count of
/// items that entered and have not left is modelled (`GroupModel`): `enter()` and `leave()` are
/// part of the step that calls them; `wait()` is a scheduling point (`wait <name>`) that cannot go
/// on while the count is above zero; `notify(queue:execute:)` starts a logical thread that waits
/// the same way (`notify <name>`), then submits the block to the queue. A wait with a timeout can
/// always go on, and times out when the search runs it before the group empties.
public final class RaceGroup: @unchecked Sendable {
    /// Shown in schedules: `wait <name>`.
    public let name: String
    /// The real group, used outside exploration.
    public let dispatchGroup = DispatchGroup()

    /// A group named `name` in schedules.
    public init(name: String) {
        self.name = name
    }

    /// `DispatchGroup()`: named after the line that makes it (`Loader.swift:12`).
    public convenience init(fileID: String = #fileID, line: Int = #line) {
        self.init(name: primitiveName(fileID: fileID, line: line))
    }

    private var model: ObjectIdentifier { ObjectIdentifier(self) }

    /// An item enters the group.
    public func enter() {
        guard let logical = LogicalThread.current else { return dispatchGroup.enter() }
        logical.withState { state in state.model(of: model, GroupModel.init).enter() }
    }

    /// An item that entered leaves the group.
    public func leave() {
        guard let logical = LogicalThread.current else { return dispatchGroup.leave() }
        logical.withState { state in state.model(of: model, GroupModel.init).leave() }
    }

    /// Waits until every item that entered has left.
    public func wait() {
        guard let logical = LogicalThread.current else { return dispatchGroup.wait() }
        logical.pause(at: GroupWait(group: model, name: "wait \(name)"))
    }

    /// Waits at most until `timeout` for the group to empty. Under the explorer a timeout of
    /// `.distantFuture` is `wait()`; any other times out when the group is not empty where the
    /// search runs it.
    public func wait(timeout: DispatchTime) -> DispatchTimeoutResult {
        guard let logical = LogicalThread.current else { return dispatchGroup.wait(timeout: timeout) }
        return logical.timedWait(
            timeout,
            wait: { wait() },
            at: { answer in
                GroupWait(group: model, name: "wait \(name) (timeout)", answer: answer)
            }
        )
    }

    /// Submits `work` to `queue` once every item that entered has left. Under the explorer a new
    /// logical thread (`notify <name>`) waits for that, then submits the block as `async` does.
    public func notify(queue: RaceQueue, execute work: @escaping @Sendable () -> Void) {
        guard let logical = LogicalThread.current else {
            let item = Race.handOff("group notify")
            dispatchGroup.notify(queue: queue.dispatchQueue) { item.run(work) }
            return
        }
        let waiter = logical.spawn("notify \(name)") { _, _ in
            GroupWait(group: model, name: "notify \(name)")
        }
        ParkedThreads.shared.run {
            waiter.begin()
            Race.$hook.withValue(waiter) { queue.async(execute: work) }
        } last: {
            waiter.end()
        }
    }
}

extension RaceQueue {
    /// Submits `work` as a member of `group`, like `DispatchQueue.async(group:flags:execute:)`:
    /// the group is entered now and left when the item has run.
    public func async(
        group: RaceGroup,
        flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable () -> Void
    ) {
        group.enter()
        async(flags: flags) {
            work()
            group.leave()
        }
    }
}

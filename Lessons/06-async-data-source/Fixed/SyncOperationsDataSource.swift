import Dispatch
import RaceLab
import Synchronization

/// Compromise 2, "sync GCD operations": the state-object data source, plus the option to run reads
/// and updates *synchronously* on its queue.
///
/// What it guarantees: a read block sees one whole state, and every read in the block sees the same
/// one, because no update (a barrier) can run while a read is on the queue. A synchronous read always
/// returns the newest state, with nothing to keep in sync on the UI side.
/// What it costs: the reader blocks until every update queued before it has run, observer calls
/// included. And it can deadlock: a synchronous call made *from* the data source's queue (inside an
/// update block or an observer callback) waits for itself, and one made from a thread the queue is
/// waiting for waits forever. Hence the rule: never block inside this queue's work.
public final class SyncOperationsDataSource<State: Sendable>: @unchecked Sendable {
    /// A `RaceQueue`, so that the schedule explorer sees its work items, and a `sync` that waits for itself.
    private let queue = RaceQueue(label: "racelab.sync-operations", qos: .userInitiated, attributes: .concurrent)
    /// Only touched on `queue`: written in barriers, read in plain work items.
    private var state: State {
        didSet {
            for observer in observers {
                observer.dataSourceChanged(state)
            }
        }
    }
    /// Only touched in barriers on `queue`.
    private var observers: [any StateObserver<State>] = []
    /// Updates enqueued and not yet finished. A synchronous read submitted while this is above zero
    /// waits behind a barrier: that is what `readerWaits` counts.
    private let pendingUpdates = Atomic<Int>(0)

    /// Counts the synchronous reads that had an update queued or running ahead of them.
    public let readerWaits = WaitMeter()

    public init(initialState: State) {
        state = initialState
    }

    /// Replaces the state with what `update` makes of it; with `sync`, returns only once it has.
    public func update(sync: Bool = false, _ update: @escaping @Sendable (State) -> State?) {
        pendingUpdates.wrappingAdd(1, ordering: .relaxed)
        let operation: @Sendable () -> Void = {
            if let newState = update(self.state) { self.state = newState }
            self.pendingUpdates.wrappingSubtract(1, ordering: .relaxed)
        }
        if sync {
            queue.sync(flags: .barrier, execute: operation)
        } else {
            queue.async(flags: .barrier, execute: operation)
        }
    }

    /// Runs `body` with the current state on the data source's queue and returns its result, blocking
    /// the caller meanwhile. Never call it from this queue's own work (update blocks, observers).
    public func read<T>(_ body: (State) throws -> T) rethrows -> T {
        readerWaits.record(waited: pendingUpdates.load(ordering: .relaxed) > 0)
        return try queue.sync { try body(state) }
    }

    /// Calls `block` with the current state on the data source's queue, without blocking the caller.
    public func read(_ block: @escaping @Sendable (State) -> Void) {
        queue.async { block(self.state) }
    }

    /// Adds `observer`; with `notifyOnAdded` it is told the current state first, exactly once.
    public func add(observer: any StateObserver<State>, notifyOnAdded: Bool, sync: Bool = false) {
        let operation: @Sendable () -> Void = {
            self.observers.append(observer)
            if notifyOnAdded { observer.dataSourceChanged(self.state) }
        }
        if sync {
            queue.sync(flags: .barrier, execute: operation)
        } else {
            queue.async(flags: .barrier, execute: operation)
        }
    }

    /// Waits until every operation enqueued so far has run. For checks and tests.
    public func waitUntilIdle() {
        queue.sync(flags: .barrier) {}
    }
}

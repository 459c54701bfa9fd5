import Dispatch
import RaceLab

/// Compromise 3, "safe reading queue": writes are synchronized *into* one chosen serial queue (the
/// UI queue), so code running on that queue may read `state` directly, with no lock and no hop.
///
/// Each update computes the new state in a barrier on the data source's queue, then assigns it inside
/// `readingQueue.sync(flags: .barrier)`. An assignment is therefore a work item of the reading queue:
/// it runs between the reading queue's other work items, never during one. Code on the reading queue
/// sees `state` constant for the whole of its work item, so even two reads in a row agree.
///
/// The price is paid by the writer: the data source's queue blocks until the reading queue is free.
/// And it is a deadlock waiting to happen: if code on the reading queue ever waits synchronously for
/// the data source's queue while an update waits for the reading queue, neither moves. The article's
/// warning stands: never add operations to the data source's queue synchronously.
public final class SafeReadingQueueDataSource<State: Sendable>: @unchecked Sendable {
    /// `RaceQueue`s, so that the schedule explorer sees the work items of both queues.
    private let queue = RaceQueue(label: "racelab.safe-reading-queue", qos: .userInitiated, attributes: .concurrent)
    private let readingQueue: RaceQueue
    /// Written only in a barrier on `queue` *and* inside a work item of `readingQueue`; so it may be
    /// read on either queue without a lock.
    private var storedState: State

    /// - Parameter readingQueue: a serial queue, the one allowed to read `state` directly.
    public init(initialState: State, readingQueue: RaceQueue) {
        storedState = initialState
        self.readingQueue = readingQueue
    }

    /// The current state. Call on the reading queue only (checked): anywhere else it is a data race.
    public var state: State {
        readingQueue.preconditionOnQueue()
        return storedState
    }

    /// Replaces the state with what `update` makes of it.
    public func update(_ update: @escaping @Sendable (State) -> State?) {
        queue.async(flags: .barrier) {
            guard let newState = update(self.storedState) else { return }
            // The data source's queue now waits for the reading queue: whatever the UI is doing
            // finishes first.
            self.readingQueue.sync(flags: .barrier) {
                self.storedState = newState
            }
        }
    }

    /// Calls `block` with the current state on the data source's queue, for readers elsewhere.
    public func read(_ block: @escaping @Sendable (State) -> Void) {
        queue.async { block(self.storedState) }
    }

    /// Waits until every update enqueued so far is visible on the reading queue. For checks and
    /// tests; never call it *from* the reading queue (that is the deadlock above).
    public func waitUntilIdle() {
        queue.sync(flags: .barrier) {}
    }
}

import Dispatch
import RaceLab

/// Compromise 4, the article's final design: an observer that carries each new state over to one
/// specific serial queue (the UI queue) and keeps it there, readable at once by code on that queue.
///
/// Added to a `StateDataSource` from the start (made with the same initial state, so no notify-on-add
/// is needed), it always holds the latest state the UI queue has been sent. Code on that queue reads
/// `state` with no lock and never waits; within one work item `state` cannot change, so two reads in
/// a row agree. Its own observers are told on that queue, in order.
///
/// Cost: one work item on the UI queue per update, whether or not the UI looks.
public final class SpecificQueueStateObserver<State: Sendable>: StateObserver, @unchecked Sendable {
    /// A `RaceQueue`, so that the schedule explorer sees each state delivered to it.
    public let queue: RaceQueue
    /// Confined to `queue`.
    private var storedState: State
    /// Confined to `queue`.
    private var observers: [any StateObserver<State>] = []

    public init(queue: RaceQueue, state: State) {
        self.queue = queue
        storedState = state
    }

    /// The latest state this queue has been sent. Call on `queue` only (checked).
    public var state: State {
        queue.preconditionOnQueue()
        return storedState
    }

    /// The state read off `queue`, for the schedule explorer's state lines only: the explorer reads
    /// it while every thread is paused, so nothing writes beside it.
    var stateWhileEveryThreadIsPaused: State { storedState }

    public func dataSourceChanged(_ newState: State) {
        queue.async(flags: .barrier) {
            self.storedState = newState
            for observer in self.observers {
                observer.dataSourceChanged(newState)
            }
        }
    }

    /// Adds an observer that is told on `queue`; with `notifyOnAdded` it is told the current state at
    /// once, exactly once. Call on `queue` only (checked): the list and the state are confined to it,
    /// so no new state can arrive between "told" and "in the list".
    public func add(observer: any StateObserver<State>, notifyOnAdded: Bool) {
        queue.preconditionOnQueue()
        observers.append(observer)
        if notifyOnAdded { observer.dataSourceChanged(storedState) }
    }

    /// The article's `observerOnMainQueue(with:)`, kept for the lesson's `observer-on-main-queue`
    /// variant: appends `observer` and tells it the current state on the *caller's* thread, with
    /// nothing confining either to `queue`. `add(observer:notifyOnAdded:)` called on `queue` is the fix.
    func addOnCallersThread(observer: any StateObserver<State>) {
        // hazard (observer-on-main-queue): the list is appended here while `queue` iterates it in
        // `dataSourceChanged`, a data race on the array; and a state delivered between the append and
        // the read below reaches the new observer twice, once from each thread.
        observers.append(observer)
        Race.window("tell current state")
        observer.dataSourceChanged(storedState)
    }
}

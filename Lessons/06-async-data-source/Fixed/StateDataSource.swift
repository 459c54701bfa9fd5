import Dispatch
import RaceLab

/// The article's fix: the data source keeps one private, immutable `State` value and replaces it
/// whole.
///
/// - `update { old in new }` runs as a barrier on the data source's concurrent queue: it reads the
///   current state and installs the new one with no other update or read in between, then tells every
///   observer the new state, still inside the barrier, so observers hear states in the order they
///   were made.
/// - `read { state in … }` hands out the state as one value. Whatever the reader does with it later,
///   it holds a state that existed; the data source can move on without touching it.
/// - Nothing blocks: both are asynchronous. The UI does not read the data source at all; it keeps the
///   last state it was told (see `CollectionComponent`).
///
/// The guarantee is exactly as deep as `State`'s immutability: a state that holds a reference to
/// something mutable is shared, not copied (see `LeakyState`).
public final class StateDataSource<State: Sendable>: @unchecked Sendable {
    /// A `RaceQueue`, so that the schedule explorer sees each update and read as a thread of its own.
    private let queue = RaceQueue(label: "racelab.state-data-source", qos: .userInitiated, attributes: .concurrent)
    /// Only touched on `queue`: written in barriers, read in plain work items.
    private var state: State
    /// Only touched in barriers on `queue`.
    private var observers: [any StateObserver<State>] = []
    /// Whether `update` runs as a barrier. Always, except in the lesson's `update-without-barrier`
    /// variant, which reproduces the article's last listing: `update` on `queue.async` without
    /// `.barrier`.
    let updatesAsBarrier: Bool

    /// - Parameter updatesAsBarrier: `true` unless you are reproducing the article's bug.
    public init(initialState: State, updatesAsBarrier: Bool = true) {
        state = initialState
        self.updatesAsBarrier = updatesAsBarrier
    }

    /// Replaces the state with what `update` makes of it, or leaves it if `update` returns `nil`.
    ///
    /// `update` runs on the data source's queue with every other update and read held back; keep it
    /// short and never let it wait for another queue.
    public func update(_ update: @escaping @Sendable (State) -> State?) {
        // hazard (update-without-barrier): without .barrier, updates run beside each other and
        // beside reads: two read the same state, both install their successor, one update is lost;
        // and `state` is written while others read it, a data race.
        queue.async(flags: updatesAsBarrier ? .barrier : []) {
            guard let newState = update(self.state) else { return }
            if !self.updatesAsBarrier { Race.window("install state") }
            self.state = newState
            for observer in self.observers {
                observer.dataSourceChanged(newState)
            }
        }
    }

    /// Calls `block` with the current state, on the data source's queue (concurrently with other reads).
    public func read(_ block: @escaping @Sendable (State) -> Void) {
        queue.async { block(self.state) }
    }

    /// Adds `observer`; with `notifyOnAdded` it is told the current state first, exactly once.
    ///
    /// Adding is itself a barrier: no update can slip between "told the current state" and "in the
    /// list", so the observer neither misses the next state nor hears the current one twice.
    public func add(observer: any StateObserver<State>, notifyOnAdded: Bool) {
        queue.async(flags: .barrier) {
            self.observers.append(observer)
            if notifyOnAdded { observer.dataSourceChanged(self.state) }
        }
    }

    /// The state read off the queue, for the schedule explorer's state lines only: the explorer
    /// reads it while every thread is paused, so nothing writes beside it.
    var stateWhileEveryThreadIsPaused: State { state }

    /// Waits until every update, read and add enqueued so far has run. For checks and tests.
    public func waitUntilIdle() {
        queue.sync(flags: .barrier) {}
    }
}

import Dispatch
import RaceLab

/// Compromise 1, "atomic property": `state` is a lock-guarded property that any thread may read
/// synchronously, like Objective-C's `atomic`. Updates are computed on a serial queue.
///
/// What it guarantees: each read of `state` returns one whole state that existed (a consistent
/// snapshot), and updates are atomic because only the serial queue writes.
/// What it does not: two reads in a row are two snapshots. The article's own `cellForItemAt` reads
/// `dataSource.state?.items[i].title` and then `dataSource.state?.items[i].detailedTitle`; an update
/// between them yields a cell with labels from two states. The reader can also block, briefly, on the
/// lock while a writer holds it.
///
/// Observers are told *after* the lock is released (calling out under a lock invites deadlocks), so
/// their order relies on every set coming from the one serial queue.
public final class AtomicPropertyDataSource<State: Sendable>: @unchecked Sendable {
    /// A `RaceQueue`, so that the schedule explorer sees each update as a thread of its own.
    private let serialQueue = RaceQueue(label: "racelab.atomic-property", qos: .userInitiated)
    private let lock = MeteredLock()
    /// Never touched except through the lock, in `state` and `currentState`.
    private var storedState: State
    /// Only touched on `serialQueue`.
    private var observers: [any StateObserver<State>] = []

    /// Counts the reads of `state` that found the lock taken.
    public let readerWaits = WaitMeter()

    public init(initialState: State) {
        storedState = initialState
    }

    /// The current state, read under the lock from any thread.
    public var state: State {
        lock.withLock(meter: readerWaits) { storedState }
    }

    /// The writer's own read, not counted as a reader's.
    private var currentState: State {
        lock.withLock { storedState }
    }

    /// The state, not counted as a reader's wait: for the schedule explorer's state lines. The lock
    /// is never held across a scheduling point, so this never waits for a paused thread.
    var describedState: State { currentState }

    private func install(_ newState: State) {
        lock.withLock { storedState = newState }
        // We hand observers `newState`, not `state`: reading again could return a newer state already.
        Race.window("notify observers")
        for observer in observers {
            observer.dataSourceChanged(newState)
        }
    }

    /// Replaces the state with what `update` makes of it, on the serial queue.
    public func update(_ update: @escaping @Sendable (State) -> State?) {
        serialQueue.async {
            guard let newState = update(self.currentState) else { return }
            self.install(newState)
        }
    }

    /// Adds `observer`, on the serial queue; with `notifyOnAdded` it is told the current state first.
    public func add(observer: any StateObserver<State>, notifyOnAdded: Bool) {
        serialQueue.async {
            self.observers.append(observer)
            if notifyOnAdded { observer.dataSourceChanged(self.currentState) }
        }
    }

    /// Waits until every update and add enqueued so far has run. For checks and tests.
    public func waitUntilIdle() {
        serialQueue.sync {}
    }
}

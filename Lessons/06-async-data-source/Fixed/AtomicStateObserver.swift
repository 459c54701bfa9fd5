import Foundation
import RaceLab

/// Compromise 5, the article's atomic state observer: an observer of the data source that keeps the
/// latest state behind a lock, so *any* thread can read it synchronously.
///
/// What it guarantees: each read of `state` is one whole state (a consistent snapshot), and, because
/// the data source calls `dataSourceChanged` from its queue one state at a time, reads never go back
/// in time and its own observers hear states in order.
/// What it does not: two reads in a row may return two states, exactly like the atomic property; a
/// reader must take one snapshot and use it. Reads may block briefly on the lock.
///
/// Its observers are told outside the lock (no unknown code under a lock). That is why its ordering
/// depends on its caller being serial: two threads setting states at once could tell observers the
/// newer state first. For the same reason it offers no notify-on-add: the state read at add time
/// could reach the new observer after a newer state a concurrent update already told it.
public final class AtomicStateObserver<State: Sendable>: StateObserver, @unchecked Sendable {
    private let lock = MeteredLock()
    /// Guarded by `lock`.
    private var storedState: State
    /// Guarded by `lock`.
    private var observers: [any StateObserver<State>] = []

    /// Counts the reads of `state` that found the lock taken.
    public let readerWaits = WaitMeter()

    public init(state: State) {
        storedState = state
    }

    /// The latest state, from any thread.
    public var state: State {
        lock.withLock(meter: readerWaits) { storedState }
    }

    public func dataSourceChanged(_ newState: State) {
        let observers = lock.withLock {
            storedState = newState
            return self.observers
        }
        // A window only if two threads call this at once, which the data source never does.
        Race.window("notify observers")
        for observer in observers {
            observer.dataSourceChanged(newState)
        }
    }

    /// Adds an observer told of every later state, on the thread that sets it.
    public func add(observer: any StateObserver<State>) {
        lock.withLock { observers.append(observer) }
    }
}

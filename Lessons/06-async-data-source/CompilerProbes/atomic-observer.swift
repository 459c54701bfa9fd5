// Compiler probe · lesson 6 · atomic-observer
// An observer holding the latest state behind a lock, readable from any thread; ordered as long as
// one queue calls it. Correct as the lesson uses it; rejected by Swift 6 as written (a lock-guarded
// var in a class without Sendable), once an update from a queue captures it.
import Foundation

final class AtomicStateObserver {
    private let lock = NSLock()
    private var storedState = State()

    var state: State {
        lock.lock()
        defer { lock.unlock() }
        return storedState
    }

    func dataSourceChanged(_ newState: State) {
        lock.lock()
        storedState = newState
        lock.unlock()
    }
}

func deliver(_ state: State, to observer: AtomicStateObserver, on queue: DispatchQueue) {
    queue.async { observer.dataSourceChanged(state) }
}

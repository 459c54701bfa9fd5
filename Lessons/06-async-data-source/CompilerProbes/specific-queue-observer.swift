// Compiler probe · lesson 6 · specific-queue-observer
// An observer that keeps the latest state for the UI, set only on the UI's queue. Correct; rejected
// by Swift 6 as written (a class whose var is guarded by a queue the compiler does not know about).
import Foundation

final class SpecificQueueStateObserver {
    let queue: DispatchQueue
    private var storedState = State()

    init(queue: DispatchQueue) { self.queue = queue }

    var state: State {
        dispatchPrecondition(condition: .onQueue(queue))
        return storedState
    }

    func dataSourceChanged(_ newState: State) {
        queue.async { self.storedState = newState }
    }
}

// Compiler probe · lesson 6 · safe-reading-queue
// Writes wait for the reading (UI) queue, so the UI reads freely on its own queue. Correct; rejected
// by Swift 6 as written: a queue precondition is a run-time check the compiler cannot use.
import Foundation

final class SafeReadingQueueDataSource {
    private let queue = DispatchQueue(label: "data-source", attributes: .concurrent)
    private let readingQueue: DispatchQueue
    private var storedState = State()

    init(readingQueue: DispatchQueue) { self.readingQueue = readingQueue }

    var state: State {
        dispatchPrecondition(condition: .onQueue(readingQueue))
        return storedState
    }

    func update(_ transform: @escaping @Sendable (State) -> State) {
        queue.async(flags: .barrier) {
            let newState = transform(self.storedState)
            self.readingQueue.sync { self.storedState = newState }
        }
    }
}

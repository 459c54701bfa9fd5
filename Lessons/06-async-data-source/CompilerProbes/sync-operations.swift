// Compiler probe · lesson 6 · sync-operations
// Synchronous reads on the data source's own queue: always the newest state, at the price of
// waiting for updates. Correct; rejected by Swift 6 as written (the queue-guarded var).
import Foundation

final class SyncOperationsDataSource {
    private let queue = DispatchQueue(label: "data-source", attributes: .concurrent)
    private var state = State()

    func update(_ transform: @escaping @Sendable (State) -> State) {
        queue.async(flags: .barrier) { self.state = transform(self.state) }
    }

    func read<T>(_ body: (State) -> T) -> T {
        queue.sync { body(state) }
    }
}

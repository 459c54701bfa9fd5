// Compiler probe · lesson 6 · state-object
// The fix: one immutable State replaced whole on a barrier, read as one value. Correct, and
// rejected by Swift 6 as written without annotations: the compiler cannot see that the queue
// guards `state` (the lesson's class says @unchecked Sendable).
import Foundation

final class StateDataSource {
    private let queue = DispatchQueue(label: "data-source", attributes: .concurrent)
    private var state = State()

    func update(_ transform: @escaping @Sendable (State) -> State) {
        queue.async(flags: .barrier) { self.state = transform(self.state) }
    }

    func read(_ block: @escaping @Sendable (State) -> Void) {
        queue.async { block(self.state) }
    }
}

// Compiler probe · lesson 6 · update-without-barrier
// The article's final update: queue.async without .barrier. Updates run side by side and lose
// each other, and `state` is written during reads. Rejected by Swift 6 as written, exactly like the
// fix: the compiler cannot see what the queue guards, so it cannot see that this one guards nothing.
import Foundation

final class StateDataSource {
    private let queue = DispatchQueue(label: "data-source", attributes: .concurrent)
    private var state = State()

    func update(_ transform: @escaping @Sendable (State) -> State) {
        queue.async { self.state = transform(self.state) }
    }

    func read(_ block: @escaping @Sendable (State) -> Void) {
        queue.async { block(self.state) }
    }
}

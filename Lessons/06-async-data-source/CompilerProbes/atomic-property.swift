// Compiler probe · lesson 6 · atomic-property
// The article's "atomic property": the state behind a lock, written from a serial queue. Each read
// is whole, but a UI that reads `state` twice can get two different states. Rejected by Swift 6 as
// written (a class with a lock and a var, no Sendable): the compiler cannot tie the lock to the
// state, and says nothing about reading twice.
import Foundation

final class AtomicPropertyDataSource {
    private let serialQueue = DispatchQueue(label: "data-source")
    private let lock = NSLock()
    private var storedState = State()

    var state: State {
        lock.lock()
        defer { lock.unlock() }
        return storedState
    }

    func update(_ transform: @escaping @Sendable (State) -> State) {
        serialQueue.async {
            let newState = transform(self.state)
            self.lock.lock()
            self.storedState = newState
            self.lock.unlock()
        }
    }
}

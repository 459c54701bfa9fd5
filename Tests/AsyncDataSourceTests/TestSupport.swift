import AsyncDataSource
import Foundation
import RaceLab
import RaceLabTesting
import Synchronization

/// The inconsistency kinds in `found`, for compact expectations.
func kinds(_ found: [Inconsistency]) -> [Inconsistency.Kind] {
    found.map(\.kind)
}

extension StateDataSource {
    /// The current state, after every update enqueued before the call.
    func settledState() -> State {
        let box = Box<State>()
        let done = DispatchSemaphore(value: 0)
        read { state in
            box.value = state
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// A value handed from one thread to another behind a lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

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
        let box = LockedValueBox<State?>(nil)
        let done = DispatchSemaphore(value: 0)
        read { state in
            box.withLockedValue { $0 = state }
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

import Foundation
import Synchronization

/// Holds each worker of a trial, before its first iteration, until the other workers have arrived,
/// so that they start together and really collide instead of running one after another.
///
/// `concurrentPerform` does not say how many threads it will use, and on Linux libdispatch brings
/// up about one thread per core at first. A gate that waited for a fixed number of threads could
/// therefore wait forever; this one waits at most `patience`, then opens anyway. It is a best
/// effort to line threads up, never a condition for correctness.
final class StartGate: Sendable {
    private let parties: Int
    private let patience: Duration
    private let arrived = Atomic<Int>(0)

    /// - Parameters:
    ///   - parties: how many workers to wait for (usually the number of active cores).
    ///   - patience: the longest a worker waits for the others.
    init(parties: Int, patience: Duration = .milliseconds(2)) {
        self.parties = max(1, parties)
        self.patience = patience
    }

    /// True once every party arrived (or patience ran out for someone).
    var isOpen: Bool { arrived.load(ordering: .acquiring) >= parties }

    /// Called by a worker before its first iteration; returns when all have arrived or patience ran out.
    func arriveAndWait() {
        let position = arrived.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        if position >= parties { return }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while !isOpen {
            if clock.now >= deadline {
                // Open for everyone: later arrivals must not wait a full patience of their own.
                arrived.store(parties, ordering: .releasing)
                return
            }
            sched_yield()
        }
    }
}

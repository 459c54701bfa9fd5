import Foundation
import Synchronization

/// Holds the first iteration each worker thread runs until the other workers have arrived, so that
/// the workers of a trial start together and really collide instead of running one after another.
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

/// Remembers, per thread, whether that thread already passed the current trial's gate.
///
/// A thread id plus a trial number is enough: a worker that saw this trial's gate does not wait at
/// it again, so only the first iteration per thread pays for the gate.
enum GateTicket {
    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        return key
    }()

    /// True the first time the calling thread asks about `generation`.
    static func firstVisit(generation: Int) -> Bool {
        let stored = Int(bitPattern: pthread_getspecific(key))
        if stored == generation { return false }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: generation))
        return true
    }
}

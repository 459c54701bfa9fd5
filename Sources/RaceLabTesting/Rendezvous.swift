import Foundation
import RaceLab

/// A race-window hook that holds every thread reaching the window `name` until `parties` threads are
/// there, then releases them together: every thread has done what precedes the window (read the
/// shared value, say) before any of them does what follows it (write it back).
///
/// Tests check `isComplete`, so a window that was renamed or moved fails the test instead of letting
/// it pass without the interleaving. The wait gives up after `patience` so that a broken test fails
/// rather than hangs; it never decides the outcome of a passing one.
public final class Rendezvous: RaceWindowHook, @unchecked Sendable {
    private let name: String
    private let parties: Int
    private let patience: TimeInterval
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var arrived = 0

    /// A rendezvous of `parties` threads at the window `name`.
    /// - Parameters:
    ///   - name: the window's name, as given to `Race.window`.
    ///   - parties: how many threads to hold there until all have arrived.
    ///   - patience: seconds a thread waits before it goes on alone, so that a broken test fails instead of hanging.
    public init(at name: String, parties: Int, patience: TimeInterval = 30) {
        self.name = name
        self.parties = parties
        self.patience = patience
    }

    /// True when all parties met at the window.
    public var isComplete: Bool {
        condition.lock()
        defer { condition.unlock() }
        return arrived >= parties
    }

    /// Holds the arriving thread at the window `name` until every party is there (or the patience runs out).
    public func windowReached(_ reached: StaticString) {
        guard reached.description == name else { return }
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        if arrived >= parties {
            condition.broadcast()
            return
        }
        let deadline = Date(timeIntervalSinceNow: patience)
        while arrived < parties {
            if !condition.wait(until: deadline) { return }
        }
    }
}

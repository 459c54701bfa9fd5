import Foundation
import Synchronization

/// Anomalies reported by a trial's iterations while it runs, and by its operations' errors.
///
/// Counters are atomics so that recording costs little next to the race being measured; the sample
/// messages are kept behind an `NSLock`, which ThreadSanitizer understands (unlike
/// `Synchronization.Mutex` on Linux, whose futex it cannot see).
final class TrialLog: Sendable {
    /// How many messages of each kind are kept per trial.
    static let sampleLimit = 3

    private let inconsistencyCount = Atomic<Int>(0)
    private let errorCount = Atomic<Int>(0)
    private let lock = NSLock()
    nonisolated(unsafe) private var samples: [String] = []

    var inconsistencies: Int { inconsistencyCount.load(ordering: .acquiring) }
    var errors: Int { errorCount.load(ordering: .acquiring) }

    var sampleMessages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return samples
    }

    func recordInconsistency(_ description: () -> String) {
        let seen = inconsistencyCount.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if seen < Self.sampleLimit { keep("inconsistency: " + description()) }
    }

    func recordError(_ error: any Error) {
        let seen = errorCount.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if seen < Self.sampleLimit { keep("error: " + describeError(error)) }
    }

    private func keep(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        samples.append(message)
    }
}

import RaceLab
import Synchronization

/// Counts a reader's calls into a data source and how many of them had to wait for someone else.
///
/// This is how the lesson *measures* "can the reader block?" instead of asserting it: a lock-based
/// read notes whether the lock was free (`NSLock.try()`), a queue-based read whether a write was
/// queued ahead of it. The count goes into each trial's outcome in the report.
public final class WaitMeter: Sendable {
    private let reads = Atomic<Int>(0)
    private let waits = Atomic<Int>(0)

    public init() {}

    /// Notes one read, and whether it had to wait.
    public func record(waited: Bool) {
        reads.wrappingAdd(1, ordering: .relaxed)
        if waited { waits.wrappingAdd(1, ordering: .relaxed) }
    }

    public var readCount: Int { reads.load(ordering: .relaxed) }
    public var waitCount: Int { waits.load(ordering: .relaxed) }

    /// A bucket of the share of reads that waited, so that the report's histogram stays short, yet
    /// fine enough to tell a price apart where readers often wait. The buckets are disjoint (each
    /// from its lower bound, included, to its upper bound, excluded), and each starts with its lower
    /// bound, so the histogram's outcome order (numbers compared as numbers) reads from no wait to
    /// the most: `0 reads waited` (none), `1 or more reads waited, under 1%`, `1–10% of reads
    /// waited`, `10–25% …`, `25–50% …`, `50–100% of reads waited`. The count itself is `tally`.
    public var bucket: String {
        let reads = readCount
        let waits = waitCount
        guard reads > 0 else { return "no read made" }
        guard waits > 0 else { return "0 reads waited" }
        let share = Double(waits) / Double(reads)
        switch share {
        case ..<0.01: return "1 or more reads waited, under 1%"
        case ..<0.1: return "1–10% of reads waited"
        case ..<0.25: return "10–25% of reads waited"
        case ..<0.5: return "25–50% of reads waited"
        default: return "50–100% of reads waited"
        }
    }

    /// The reads that waited, of all reads made: summed over a run's trials and printed under its
    /// verdict, so the report states the measured count beside the buckets.
    public var tally: Tally {
        Tally(waitCount, of: readCount, "reads waited (their lock or queue was busy)")
    }
}

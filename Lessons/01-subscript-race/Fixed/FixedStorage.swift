import Foundation
import RaceLab

/// The same store with the fix: the read and the write of a store happen in one barrier work item,
/// so no other store can run between them.
///
/// Reads still run concurrently with each other (`queue.sync` on a concurrent queue); a barrier
/// item waits for the reads before it and holds back everything after it.
public final class FixedStorage: @unchecked Sendable {
    private let queue = RaceQueue(label: "racelab.fixed-storage", attributes: .concurrent)
    private var contents: [String: Data] = [:]

    public init() {}

    /// Stores `data` under `id`: read, change and write in a single barrier work item.
    @inline(never)
    public func store(_ data: Data, forIdentifier id: String) {
        Race.step("store contents")
        queue.async(flags: .barrier) {
            self.contents[id] = data
        }
    }

    /// The stored value for `id`, read concurrently with other reads.
    public func data(forIdentifier id: String) -> Data? {
        queue.sync { contents[id] }
    }

    /// The number of stored keys. Waits for every barrier write enqueued before it.
    public var numberOfItems: Int {
        queue.sync { contents.count }
    }

    /// The stored identifiers, sorted (what `racelab play 1` shows between steps).
    public var identifiers: [String] {
        queue.sync { contents.keys.sorted() }
    }
}

import Foundation
import RaceLab

/// A key-value store guarded by a concurrent queue, the way the pattern is usually written:
/// every access goes through one computed property whose getter is `queue.sync` and whose setter
/// is an asynchronous barrier.
///
/// It looks thread-safe, and each single read or write is. But `contents[id] = data` calls the
/// getter, changes the copy it got, and calls the setter: two work items on the queue, with nothing
/// keeping another thread's store out from between them. Two stores that both read before either
/// writes both write back a dictionary missing the other's key.
///
/// `@unchecked Sendable` is the type's claim to be thread-safe; the lesson is that the claim is false.
///
/// The queue is a `RaceQueue`: a `DispatchQueue` (and nothing more) outside the schedule explorer,
/// whose `sync` calls and work items the explorer sees inside it.
public final class Storage: @unchecked Sendable {
    private let queue = RaceQueue(label: "racelab.storage", attributes: .concurrent)
    private var _contents: [String: Data] = [:]
    /// Each store's copy on its way back, when the explorer shows them (see `Storage+Copies`).
    let copies: StoreCopies?

    private var contents: [String: Data] {
        get {
            let read = queue.sync { _contents }
            copies?.read(read)
            return read
        }
        set {
            copies?.made(newValue)
            // hazard: the getter's work item has finished; another store can read the same old
            // dictionary before this setter's barrier runs, and one of the two keys is lost.
            Race.window("set contents")
            queue.async(flags: .barrier) {
                self._contents = newValue
                self.copies?.written(newValue)
            }
        }
    }

    /// - Parameter showingCopies: keep each store's copy from its read to its write, for the
    ///   explorer's pages (`racelab explore 1 --html`, `racelab play 1`); off under the stress runner.
    public init(showingCopies: Bool = false) {
        copies = showingCopies ? StoreCopies() : nil
    }

    /// Stores `data` under `id`: a get and a set, as two separate work items on the queue.
    @inline(never)
    public func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    /// The number of stored keys. Waits for every barrier write enqueued before it.
    public var numberOfItems: Int {
        contents.count
    }

    /// The stored identifiers, sorted (what `racelab play 1` shows between steps).
    public var identifiers: [String] {
        contents.keys.sorted()
    }
}

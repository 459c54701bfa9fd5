import Foundation

/// The copies `Storage`'s stores hold between their read and their write: the value each store
/// read, with its own key added, until its barrier writes it back. The explorer's pages show them
/// beside the store's contents, where the stale copy that loses a key can be seen.
///
/// A store's read and its copy are matched by the thread that made both (a store's getter and
/// setter run on its caller's thread); its key is the one its copy adds to its read. Only the
/// explorer keeps them (`Storage(showingCopies: true)`).
final class StoreCopies: @unchecked Sendable {
    private let lock = NSLock()
    /// What the getter last returned on each thread.
    private var reads: [ObjectIdentifier: [String]] = [:]
    /// The copies made but not yet written back, in the order they were made.
    private var pending: [(key: String, read: [String], copy: [String])] = []

    /// A getter returned `value` on this thread.
    func read(_ value: [String: Data]) {
        lock.withLock { reads[ObjectIdentifier(Thread.current)] = value.keys.sorted() }
    }

    /// A setter on this thread got `copy`: what its getter read plus its own key.
    func made(_ copy: [String: Data]) {
        lock.withLock {
            let read = reads[ObjectIdentifier(Thread.current)] ?? []
            let keys = copy.keys.sorted()
            let own = keys.filter { !read.contains($0) }.joined(separator: ", ")
            pending.append((own, read, keys))
        }
    }

    /// A barrier wrote `copy` back.
    func written(_ copy: [String: Data]) {
        lock.withLock {
            let keys = copy.keys.sorted()
            if let index = pending.firstIndex(where: { $0.copy == keys }) { pending.remove(at: index) }
        }
    }

    /// The copies on their way back, in the order they were made: each store's key and what it read.
    var inFlight: [(key: String, read: [String])] {
        lock.withLock { pending.map { ($0.key, $0.read) } }
    }
}

import Foundation

/// The loads the app's screen makes while stores are encoded. Each slow encode, once it runs, asks
/// for one load through the store it encodes for, so every such trial makes loads during encodes by
/// construction, not by the luck of a thread's timing. It counts the loads that ran and, of those,
/// the loads that **waited**: that ran only after the encode they were made during had ended.
///
/// Inside a barrier (the article's store) every such load waits: libdispatch starts nothing on the
/// queue until the barrier ends. Encoded before the barrier, a load made during an encode runs
/// beside it unless no thread was free in time. Both stores are correct; the count is their cost.
final class StoreLoader: @unchecked Sendable {
    private let identifiers: [String]
    /// Whether the encode of this number still runs (the trial's `encoding`).
    private let isEncoding: @Sendable (Int) -> Bool
    /// The trial's group of pending work: a load made here is part of the trial.
    private let pending: DispatchGroup
    private let lock = NSLock()
    private var next = 0
    private var madeDuringEncodes = 0
    private var waited = 0

    init(identifiers: [String], pending: DispatchGroup, isEncoding: @escaping @Sendable (Int) -> Bool) {
        self.identifiers = identifiers
        self.pending = pending
        self.isEncoding = isEncoding
    }

    /// Loads the next document through `store` while encode `number` runs (called by that encode).
    func load(duringEncode number: Int, through store: PersistentDataStore) {
        let identifier = lock.withLock {
            defer { next += 1 }
            return identifiers[next % identifiers.count]
        }
        pending.enter()
        store.loadData(
            forIdentifier: identifier,
            transformer: { [self] data in
                ran(madeDuring: number)
                return data
            },
            completion: { [pending] _ in pending.leave() }
        )
    }

    /// The loads made during an encode that ran, and those of them that waited for it. Complete
    /// once the trial's pending group is empty.
    var counts: (madeDuringEncodes: Int, waited: Int) {
        lock.withLock { (madeDuringEncodes, waited) }
    }

    /// Called by the load's transformer, on the store's queue: the load runs now.
    private func ran(madeDuring number: Int) {
        let waitedForIt = !isEncoding(number)
        lock.withLock {
            madeDuringEncodes += 1
            if waitedForIt { waited += 1 }
        }
    }
}

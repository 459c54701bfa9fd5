import Foundation

/// A thread that loads documents through the store, one load after the other, for as long as a
/// trial runs: the app's screen reading while stores are encoded. It counts the loads made while an
/// encode ran and, of those, the loads that **waited for the encode**: loads that ran only after
/// every encode running when they were made had ended.
///
/// Inside a barrier (the article's store) every such load waits: libdispatch starts nothing on the
/// queue until the barrier ends. Encoded before the barrier, a load made during an encode runs
/// beside it unless no thread was free in time. Both stores are correct; the count is their cost.
final class StoreLoader: @unchecked Sendable {
    private let store: PersistentDataStore
    private let identifiers: [String]
    /// The encodes running now, by number (the trial's `encoding`).
    private let runningEncodes: @Sendable () -> Set<Int>
    private let lock = NSLock()
    private var started = false
    private var stopped = false
    private var madeDuringEncodes = 0
    private var waited = 0
    private let done = DispatchSemaphore(value: 0)

    init(store: PersistentDataStore, identifiers: [String], runningEncodes: @escaping @Sendable () -> Set<Int>) {
        self.store = store
        self.identifiers = identifiers
        self.runningEncodes = runningEncodes
    }

    /// Starts loading on a thread of its own.
    func start() {
        lock.withLock { started = true }
        let thread = Thread { [self] in
            let loaded = DispatchSemaphore(value: 0)
            var next = 0
            while !isStopped {
                let encodes = runningEncodes()
                store.loadData(
                    forIdentifier: identifiers[next],
                    transformer: { [self] data in
                        ran(madeDuring: encodes)
                        return data
                    },
                    completion: { _ in loaded.signal() }
                )
                loaded.wait()
                next = (next + 1) % identifiers.count
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops the thread (waiting for its last load) and returns the loads made during an encode and
    /// those of them that waited for it. Later calls only return.
    func stop() -> (madeDuringEncodes: Int, waited: Int) {
        let running = lock.withLock {
            defer { stopped = true }
            return started && !stopped
        }
        if running { done.wait() }
        return lock.withLock { (madeDuringEncodes, waited) }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Called by the load's transformer, on the store's queue: the load runs now.
    private func ran(madeDuring encodes: Set<Int>) {
        guard !encodes.isEmpty else { return }
        let waitedForThem = runningEncodes().isDisjoint(with: encodes)
        lock.withLock {
            madeDuringEncodes += 1
            if waitedForThem { waited += 1 }
        }
    }
}

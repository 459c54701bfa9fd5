import RaceLab

/// `atomic-observer` (fixed for snapshots): an observer keeps the latest state behind a lock; readers
/// on any thread take one snapshot from it and use only that.
enum AtomicObserverVariant {
    final class Trial: DataSourceTrial {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let latest = AtomicStateObserver(state: CollectionState.initial)
        let observers = ObserverRegistry()

        init() {
            dataSource.add(observer: latest, notifyOnAdded: false)
            latest.add(observer: observers.make(expectsCurrentState: false))
        }

        func write(waiting: Bool) {
            dataSource.update { $0.next() }
        }

        /// Reads from the caller's own thread: no UI queue needed.
        func render(cell: Int) -> [Inconsistency] {
            let snapshot = latest.state
            var found = CollectionReader.audit(snapshot: snapshot, cell: cell)
            Race.window("read state again")
            if let wentBack = Audit.olderAfterNewer(earlier: snapshot.version, later: latest.state.version) {
                found.append(wentBack)
            }
            return found
        }

        func addObserver(_ iteration: Iteration) {
            latest.add(observer: observers.make(expectsCurrentState: false))
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            // The meter first: the check's own read of `latest.state` is no reader's.
            let (readers, waits) = (latest.readerWaits.bucket, latest.readerWaits.tally)
            let final = await dataSource.currentState().version
            return TrialEnd(
                finalVersion: final,
                problems: observers.problems(finalVersion: final)
                    + TrialOutcome.uiCopy(endedAt: latest.state.version, finalVersion: final),
                readers: readers,
                waits: waits
            )
        }
    }

    static let variant = Trial.variant(
        name: "atomic-observer",
        kind: .fixed,
        summary: "the latest state behind a lock in an observer; one snapshot per read"
    )
}

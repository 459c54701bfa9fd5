import Dispatch
import RaceLab

/// `sync-operations` (fixed, at a price): the UI reads synchronously on the data source's queue and
/// gets one state per read block; it waits behind queued updates to do so.
enum SyncOperationsVariant {
    final class Trial: Sendable {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let observers = ObserverRegistry()

        init() {
            dataSource.add(observer: observers.make(expectsCurrentState: false), notifyOnAdded: false)
        }
    }

    static let variant = Variant(
        name: "sync-operations",
        kind: .fixed,
        summary: "the UI reads with queue.sync on the data source's queue, one state per read block "
            + "[snapshot: yes · two reads: yes inside one block · reader waits: behind queued updates · deadlock: yes, sync from its own queue]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                // One writer in two waits for its update ("apply before going on"); the rest do not.
                trial.dataSource.update(sync: iteration.index % 4 == 0) { $0.next() }
            case .reader(let cell):
                iteration.record(render(trial, cell: cell))
            case .observerAdder:
                trial.dataSource.add(
                    observer: trial.observers.make(expectsCurrentState: true),
                    notifyOnAdded: true,
                    sync: true
                )
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = trial.dataSource.read { $0.version }
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: trial.observers.problems(finalVersion: final),
                readers: trial.dataSource.readerWaits.bucket
            )
        }
    )

    /// The UI's render: on the UI queue, one synchronous read block audits a snapshot, a second read
    /// must not return an older state.
    static func render(_ trial: Trial, cell: Int) -> [Inconsistency] {
        trial.ui.sync {
            let (found, version) = trial.dataSource.read { state in
                (CollectionReader.audit(snapshot: state, cell: cell), state.version)
            }
            let later = trial.dataSource.read { $0.version }
            return found + [Audit.backInTime(earlier: version, later: later)].compactMap { $0 }
        }
    }
}

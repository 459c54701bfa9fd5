import Dispatch
import RaceLab

/// `sync-operations` (fixed, at a price): the UI reads synchronously on the data source's queue and
/// gets one state per read block; it waits behind queued updates to do so.
enum SyncOperationsVariant {
    final class Trial: DataSourceTrial {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let observers = ObserverRegistry()

        init() {
            dataSource.add(observer: observers.make(expectsCurrentState: false), notifyOnAdded: false)
        }

        /// A waiting writer's update is synchronous: it returns once the update has been applied.
        func write(waiting: Bool) {
            dataSource.update(sync: waiting) { $0.next() }
        }

        /// The UI's render: on the UI queue, one synchronous read block audits a snapshot, a second
        /// read must not return an older state.
        func render(cell: Int) -> [Inconsistency] {
            ui.sync {
                let (found, version) = dataSource.read { state in
                    (CollectionReader.audit(snapshot: state, cell: cell), state.version)
                }
                let later = dataSource.read { $0.version }
                return found + [Audit.olderAfterNewer(earlier: version, later: later)].compactMap { $0 }
            }
        }

        func addObserver(_ iteration: Iteration) {
            dataSource.add(observer: observers.make(expectsCurrentState: true), notifyOnAdded: true, sync: true)
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            return TrialEnd(
                finalVersion: { dataSource.read { $0.version } },
                observers: observers,
                readerWaits: dataSource.readerWaits
            )
        }
    }

    static let variant = Trial.variant(
        name: "sync-operations",
        kind: .fixed,
        summary: "the UI reads with queue.sync on the data source's queue: it waits"
    )
}

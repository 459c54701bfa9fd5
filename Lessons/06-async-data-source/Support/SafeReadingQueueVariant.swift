import Dispatch
import RaceLab

/// `safe-reading-queue` (fixed, at a price): updates are assigned inside the UI queue, so UI code may
/// read `state` as often as it likes within one work item, with no lock.
enum SafeReadingQueueVariant {
    /// This design has no observers, the UI reads the property directly: an observer adder reads
    /// once more (`DataSourceTrial`'s default).
    final class Trial: DataSourceTrial {
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let dataSource: SafeReadingQueueDataSource<CollectionState>

        init() {
            dataSource = SafeReadingQueueDataSource(initialState: .initial, readingQueue: ui)
        }

        func write(waiting: Bool) {
            dataSource.update { $0.next() }
        }

        /// The same reading code as with public properties: five separate reads.
        func render(cell: Int) -> [Inconsistency] {
            ui.sync { CollectionReader.auditByRepeatedReads(cell: cell) { dataSource.state } }
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            let final = ui.sync { dataSource.state.version }
            return TrialEnd(finalVersion: final, problems: [], readers: "UI reads with no lock")
        }
    }

    static let variant = Trial.variant(
        name: "safe-reading-queue",
        kind: .fixed,
        summary: "each update waits to set the state on the UI queue; the UI reads it"
    )
}

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
            return TrialEnd(finalVersion: final, problems: [], readers: "UI reads without a lock")
        }
    }

    static let variant = Trial.variant(
        name: "safe-reading-queue",
        kind: .fixed,
        summary:
            "updates assigned inside the UI queue (sync barrier from the data source's queue); the UI reads with no lock "
            + "[snapshot: yes · two reads: yes within a UI work item · reader waits: never, the writer does · deadlock: yes, if the UI syncs to the data source]"
    )
}

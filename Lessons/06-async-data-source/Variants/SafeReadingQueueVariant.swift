import Dispatch
import RaceLab

/// `safe-reading-queue` (fixed, at a price): updates are assigned inside the UI queue, so UI code may
/// read `state` as often as it likes within one work item, with no lock.
enum SafeReadingQueueVariant {
    final class Trial: Sendable {
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let dataSource: SafeReadingQueueDataSource<CollectionState>

        init() {
            dataSource = SafeReadingQueueDataSource(initialState: .initial, readingQueue: ui)
        }
    }

    static let variant = Variant(
        name: "safe-reading-queue",
        kind: .fixed,
        summary:
            "updates assigned inside the UI queue (sync barrier from the data source's queue); the UI reads with no lock "
            + "[snapshot: yes · two reads: yes within a UI work item · reader waits: never, the writer does · deadlock: yes, if the UI syncs to the data source]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                trial.dataSource.update { $0.next() }
            case .reader(let cell):
                // The same reading code as with public properties: five separate reads.
                iteration.record(
                    trial.ui.sync {
                        CollectionReader.auditByRepeatedReads(cell: cell) { trial.dataSource.state }
                    }
                )
            case .observerAdder:
                // This design has no observers; the UI reads the property directly.
                iteration.record(
                    trial.ui.sync {
                        CollectionReader.auditByRepeatedReads(cell: 0) { trial.dataSource.state }
                    }
                )
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = trial.ui.sync { trial.dataSource.state.version }
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: [],
                readers: "UI reads without a lock"
            )
        }
    )
}

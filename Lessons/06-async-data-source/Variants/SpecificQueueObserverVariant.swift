import Dispatch
import RaceLab

/// `specific-queue-observer` (fixed): the article's final design. An observer keeps the latest state
/// on the UI queue; the UI reads it there, as often as it likes, with no lock and no wait.
enum SpecificQueueObserverVariant {
    final class Trial: Sendable {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let uiState: SpecificQueueStateObserver<CollectionState>
        let observers = ObserverRegistry()

        init() {
            uiState = SpecificQueueStateObserver(queue: ui, state: .initial)
            dataSource.add(observer: uiState, notifyOnAdded: false)
            let first = observers.make(expectsCurrentState: false)
            ui.sync { uiState.add(observer: first, notifyOnAdded: false) }
        }
    }

    static let variant = Variant(
        name: "specific-queue-observer",
        kind: .fixed,
        summary: "an observer carries each state to the UI queue; the UI reads it there, no lock "
            + "[snapshot: yes · two reads: yes within a UI work item · reader waits: never · deadlock: no]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                trial.dataSource.update { $0.next() }
            case .reader(let cell):
                iteration.record(
                    trial.ui.sync {
                        CollectionReader.auditByRepeatedReads(cell: cell) { trial.uiState.state }
                    }
                )
            case .observerAdder:
                let observer = trial.observers.make(expectsCurrentState: true)
                trial.ui.async { trial.uiState.add(observer: observer, notifyOnAdded: true) }
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = await trial.dataSource.currentState().version
            let uiVersion = trial.ui.sync { trial.uiState.state.version }
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: trial.observers.problems(finalVersion: final)
                    + TrialOutcome.uiCopy(endedAt: uiVersion, finalVersion: final),
                readers: "UI reads its own copy, no wait"
            )
        }
    )
}

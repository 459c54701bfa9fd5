import Dispatch
import RaceLab

/// `mutable-inside-state` (buggy): the state-object design, with a state that holds a reference to
/// a mutable footer. Writers bump that shared footer in place, so the UI's snapshot changes under it.
enum MutableInsideStateVariant {
    final class Trial: Sendable {
        let dataSource: StateDataSource<LeakyState>
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let uiState: SpecificQueueStateObserver<LeakyState>

        init() {
            let initial = LeakyState.initial()
            dataSource = StateDataSource(initialState: initial)
            uiState = SpecificQueueStateObserver(queue: ui, state: initial)
            dataSource.add(observer: uiState, notifyOnAdded: false)
        }
    }

    static let variant = Variant(
        name: "mutable-inside-state",
        kind: .buggy,
        summary: "the state object done right, except State holds a reference to a footer that writers change in place "
            + "[snapshot: no, it is shared · two reads: no · reader waits: never · deadlock: no]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                trial.dataSource.update { $0.next() }
            case .reader, .observerAdder:
                let found = trial.ui.sync { trial.uiState.state.render() }
                if let found { iteration.record([found]) }
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = await trial.dataSource.currentState().version
            let uiVersion = trial.ui.sync { trial.uiState.state.version }
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: TrialOutcome.uiCopy(endedAt: uiVersion, finalVersion: final),
                readers: "UI reads its own copy, no wait"
            )
        }
    )
}

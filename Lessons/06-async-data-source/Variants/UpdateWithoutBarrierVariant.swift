import Dispatch
import RaceLab

/// `update-without-barrier` (buggy): `state-object` with the article's last `update`, which is
/// enqueued with `queue.async` and no `.barrier`. Everything else is the fixed design.
enum UpdateWithoutBarrierVariant {
    final class Trial: Sendable {
        let dataSource = StateDataSource(initialState: CollectionState.initial, updatesAsBarrier: false)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let component: CollectionComponent
        let observers = ObserverRegistry()

        init() {
            component = CollectionComponent(queue: ui, state: .initial)
            dataSource.add(observer: component, notifyOnAdded: false)
            dataSource.add(observer: observers.make(expectsCurrentState: false), notifyOnAdded: false)
        }
    }

    static let variant = Variant(
        name: "update-without-barrier",
        kind: .buggy,
        summary: "state-object with the article's final update: queue.async without .barrier; updates run side "
            + "by side, read the same state, and one is lost; state is written during reads",
        makeState: { Trial() },
        operation: { trial, iteration in
            let role = Role(iteration)
            switch role {
            case .writer:
                trial.dataSource.update { $0.next() }
            case .reader(let cell) where role.usesSecondPath:
                // A reader off the UI queue asks for a snapshot and gets it later, asynchronously.
                trial.dataSource.read { state in
                    iteration.record(CollectionReader.audit(snapshot: state, cell: cell))
                }
            case .reader(let cell):
                iteration.record(trial.ui.sync { trial.component.render(cell: cell) })
            case .observerAdder:
                trial.dataSource.add(observer: trial.observers.make(expectsCurrentState: true), notifyOnAdded: true)
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = await trial.dataSource.currentState().version
            let uiVersion = trial.ui.sync { trial.component.currentState.version }
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

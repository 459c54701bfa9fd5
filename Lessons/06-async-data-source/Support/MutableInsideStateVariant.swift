import Dispatch
import RaceLab

/// `mutable-inside-state` (buggy): the state-object design, with a state that holds a reference to
/// a mutable footer. Writers bump that shared footer in place, so the UI's snapshot changes under it.
enum MutableInsideStateVariant {
    /// This design has no observers to add: an observer adder reads once more (`DataSourceTrial`'s
    /// default).
    final class Trial: DataSourceTrial {
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

        func write(waiting: Bool) {
            dataSource.update { $0.next() }
        }

        /// The UI audits its whole copy, whatever the cell.
        func render(cell: Int) -> [Inconsistency] {
            ui.sync { uiState.state.render() }.map { [$0] } ?? []
        }

        func settle() async -> TrialEnd {
            await dataSource.trialEnd(version: \.version, uiVersion: ui.sync { uiState.state.version }, observers: nil)
        }
    }

    static let variant = Trial.variant(
        name: "mutable-inside-state",
        kind: .buggy,
        summary: "the state object, but State holds a footer object changed in place"
    )
}

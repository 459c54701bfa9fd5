import Dispatch
import RaceLab

/// `state-object` (fixed): one immutable state replaced whole in a barrier; the UI keeps the copy it
/// was sent, other readers get snapshots from `read { }`.
enum StateObjectVariant {
    final class Trial: UICopyTrial {
        let dataSource: StateDataSource<CollectionState>
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let component: CollectionComponent
        let observers = ObserverRegistry()

        /// - Parameter updatesAsBarrier: false for `update-without-barrier`, the same design with the
        ///   article's last `update`.
        init(updatesAsBarrier: Bool) {
            dataSource = StateDataSource(initialState: CollectionState.initial, updatesAsBarrier: updatesAsBarrier)
            component = CollectionComponent(queue: ui, state: .initial)
            dataSource.add(observer: component, notifyOnAdded: false)
            dataSource.add(observer: observers.make(expectsCurrentState: false), notifyOnAdded: false)
        }

        convenience init() {
            self.init(updatesAsBarrier: true)
        }

        func render(cell: Int) -> [Inconsistency] {
            ui.sync { component.render(cell: cell) }
        }

        func read(cell: Int, _ iteration: Iteration) {
            if Role(iteration).usesSecondPath {
                // A reader off the UI queue asks for a snapshot and gets it later, asynchronously.
                dataSource.read { state in
                    iteration.record(CollectionReader.audit(snapshot: state, cell: cell))
                }
            } else {
                iteration.record(render(cell: cell))
            }
        }

        func addObserver(_ iteration: Iteration) {
            dataSource.add(observer: observers.make(expectsCurrentState: true), notifyOnAdded: true)
        }

        var uiVersion: Int { component.currentState.version }
    }

    static let variant = Trial.variant(
        name: "state-object",
        kind: .fixed,
        summary: "immutable State replaced whole in a barrier; the UI keeps the copy it is sent"
    )
}

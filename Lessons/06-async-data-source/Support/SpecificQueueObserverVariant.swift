import Dispatch
import RaceLab

/// `specific-queue-observer` (fixed): the article's final design. An observer keeps the latest state
/// on the UI queue; the UI reads it there, as often as it likes, with no lock and no wait.
enum SpecificQueueObserverVariant {
    final class Trial: UICopyTrial {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let uiState: SpecificQueueStateObserver<CollectionState>
        let observers = ObserverRegistry()
        /// Whether observers added mid-trial are added on the UI queue (the fix) or, as the article's
        /// `observerOnMainQueue(with:)` does, on the caller's thread (`observer-on-main-queue`).
        let addsObserversOnUIQueue: Bool

        /// - Parameter addsObserversOnUIQueue: false for `observer-on-main-queue`, the same design
        ///   with the article's way of adding an observer.
        init(addsObserversOnUIQueue: Bool) {
            self.addsObserversOnUIQueue = addsObserversOnUIQueue
            uiState = SpecificQueueStateObserver(queue: ui, state: .initial)
            dataSource.add(observer: uiState, notifyOnAdded: false)
            let first = observers.make(expectsCurrentState: false)
            ui.sync { uiState.add(observer: first, notifyOnAdded: false) }
        }

        func render(cell: Int) -> [Inconsistency] {
            ui.sync { CollectionReader.auditByRepeatedReads(cell: cell) { uiState.state } }
        }

        convenience init() {
            self.init(addsObserversOnUIQueue: true)
        }

        func addObserver(_ iteration: Iteration) {
            addObserver()
        }

        /// Adds an observer that must be told the UI's current state once, then every later one.
        func addObserver() {
            let observer = observers.make(expectsCurrentState: true)
            if addsObserversOnUIQueue {
                ui.async { self.uiState.add(observer: observer, notifyOnAdded: true) }
            } else {
                uiState.addOnCallersThread(observer: observer)
            }
        }

        var uiVersion: Int { uiState.state.version }
    }

    static let variant = Trial.variant(
        name: "specific-queue-observer",
        kind: .fixed,
        summary: "each state carried to the UI queue by an observer, read there"
    )
}

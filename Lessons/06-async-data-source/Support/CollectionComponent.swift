import Dispatch
import RaceLab

/// The UI side of the fixed design: a collection component that keeps its own copy of the state,
/// confined to the UI queue (the stand-in for the main queue on Linux).
///
/// The data source tells it each new state on the data source's queue; the component hops to the UI
/// queue and replaces its copy there. Every callback of the collection view (number of items, cell
/// for item) then reads that copy with no lock and no wait, and within one UI work item the copy
/// cannot change: two reads in a row agree.
public final class CollectionComponent: StateObserver, @unchecked Sendable {
    public typealias State = CollectionState

    /// The queue the collection view lives on. All reads of `state` happen there. A `RaceQueue`, so
    /// that the schedule explorer sees each state delivered to it.
    public let queue: RaceQueue
    /// Confined to `queue`: written only by the work items `dataSourceChanged` sends there.
    private var state: CollectionState
    private var lastRenderedVersion = 0

    /// - Parameter state: the state the data source had when this component was made; the component
    ///   is then added to the data source *without* notify-on-add.
    public init(queue: RaceQueue, state: CollectionState) {
        self.queue = queue
        self.state = state
    }

    public func dataSourceChanged(_ newState: CollectionState) {
        // The only place the state crosses to the UI queue, so the copy needs no lock.
        queue.async { self.state = newState }
    }

    /// The copy the UI shows now. Call on `queue` only.
    public var currentState: CollectionState {
        queue.preconditionOnQueue()
        return state
    }

    /// What the collection view does on a reload, on `queue`: it reads the header, the items and the
    /// footer, then fills cell `index` from two separate reads, as `cellForItemAt` does.
    public func render(cell index: Int) -> [Inconsistency] {
        queue.preconditionOnQueue()
        var found: [Inconsistency?] = []
        found.append(Audit.olderAfterNewer(earlier: lastRenderedVersion, later: state.version))
        lastRenderedVersion = state.version
        found.append(Audit.mixedState(header: state.header, items: state.items, footer: state.footer))
        let title = state.items[index].title
        // Same mark as the buggy readers, so noise slows every reader at the same step. Here it is no
        // window: nothing else runs on the UI queue until this work item ends.
        Race.window("read detailedTitle", on: queue)
        let detailedTitle = state.items[index].detailedTitle
        found.append(Audit.tornCell(title: title, detailedTitle: detailedTitle))
        return found.compactMap { $0 }
    }
}

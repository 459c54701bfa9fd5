import Dispatch
import RaceLab

/// `atomic-property` (buggy for two reads): `state` behind a lock. One read is a whole state, but the
/// article's `cellForItemAt` reads `state` twice, and an update between the reads tears the cell.
enum AtomicPropertyVariant {
    final class Trial: DataSourceTrial {
        let dataSource = AtomicPropertyDataSource(initialState: CollectionState.initial)
        /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
        let ui = RaceQueue(label: "racelab.ui")
        let observers = ObserverRegistry()
        /// What the UI read, for the explorer's state lines; nil in `racelab run`.
        let uiReads: ReadLog?

        convenience init() {
            self.init(logsReads: false)
        }

        init(logsReads: Bool) {
            uiReads = logsReads ? ReadLog() : nil
            dataSource.add(observer: observers.make(expectsCurrentState: false), notifyOnAdded: false)
        }

        func write(waiting: Bool) {
            dataSource.update { $0.next() }
        }

        func render(cell: Int) -> [Inconsistency] {
            ui.sync { dataSource.render(cell: cell, log: uiReads) }
        }

        func addObserver(_ iteration: Iteration) {
            dataSource.add(observer: observers.make(expectsCurrentState: true), notifyOnAdded: true)
        }

        func settle() async -> TrialEnd {
            dataSource.waitUntilIdle()
            return TrialEnd(
                finalVersion: { dataSource.state.version },
                observers: observers,
                readerWaits: dataSource.readerWaits
            )
        }
    }

    static let variant = Trial.variant(
        name: "atomic-property",
        kind: .buggy,
        summary: "state behind a lock: each read whole, but cellForItemAt reads it twice"
    )
}

extension AtomicPropertyDataSource where State == CollectionState {
    /// The UI reader of the article: the header, items and footer come from one read of `state`
    /// (whole), then `cellForItemAt` fills the two labels from two reads of `state`.
    @inline(never)
    public func render(cell index: Int, log: ReadLog? = nil) -> [Inconsistency] {
        let snapshot = state
        log?.note("state v\(snapshot.version)")
        var found = [Audit.mixedState(header: snapshot.header, items: snapshot.items, footer: snapshot.footer)]
        // hazard: the lock is released after the first read; the serial queue can install the next
        // state before the second.
        found.append(CollectionReader.auditCellLabels(cell: index, items: { state.items }, log: log))
        return found.compactMap { $0 }
    }
}

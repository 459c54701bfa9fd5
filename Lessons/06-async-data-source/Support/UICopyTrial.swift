import RaceLab

/// A trial of a design in which a `StateDataSource` sends each state to an observer that keeps the
/// UI's own copy on the UI queue (`state-object`, `specific-queue-observer` and the article's
/// variants of them): a write is one update, and the trial ends with the UI's copy read on its queue.
protocol UICopyTrial: DataSourceTrial {
    var dataSource: StateDataSource<CollectionState> { get }
    /// The UI queue, a `RaceQueue` so that the schedule explorer sees its work items.
    var ui: RaceQueue { get }
    var observers: ObserverRegistry { get }
    /// The version of the UI's copy; read on `ui` only.
    var uiVersion: Int { get }
}

extension UICopyTrial {
    func write(waiting: Bool) {
        dataSource.update { $0.next() }
    }

    func settle() async -> TrialEnd {
        await dataSource.trialEnd(version: \.version, uiVersion: ui.sync { uiVersion }, observers: observers)
    }
}

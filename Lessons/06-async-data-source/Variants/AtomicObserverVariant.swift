import RaceLab

/// `atomic-observer` (fixed for snapshots): an observer keeps the latest state behind a lock; readers
/// on any thread take one snapshot from it and use only that.
enum AtomicObserverVariant {
    final class Trial: Sendable {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let latest = AtomicStateObserver(state: CollectionState.initial)
        let observers = ObserverRegistry()

        init() {
            dataSource.add(observer: latest, notifyOnAdded: false)
            latest.add(observer: observers.make(expectsCurrentState: false))
        }
    }

    static let variant = Variant(
        name: "atomic-observer",
        kind: .fixed,
        summary: "an observer keeps the latest state behind a lock; readers on any thread take one snapshot "
            + "[snapshot: yes · two reads: no, never older · reader waits: lock · deadlock: no]",
        makeState: { Trial() },
        operation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                trial.dataSource.update { $0.next() }
            case .reader(let cell):
                // Read from the iteration's own thread: no UI queue needed.
                let snapshot = trial.latest.state
                var found = CollectionReader.audit(snapshot: snapshot, cell: cell)
                Race.window("read state again")
                if let wentBack = Audit.backInTime(earlier: snapshot.version, later: trial.latest.state.version) {
                    found.append(wentBack)
                }
                iteration.record(found)
            case .observerAdder:
                trial.latest.add(observer: trial.observers.make(expectsCurrentState: false))
            }
        },
        check: { trial, info in
            trial.dataSource.waitUntilIdle()
            let final = await trial.dataSource.currentState().version
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: trial.observers.problems(finalVersion: final)
                    + TrialOutcome.uiCopy(endedAt: trial.latest.state.version, finalVersion: final),
                readers: trial.latest.readerWaits.bucket
            )
        }
    )
}

import RaceLab

/// `actor-state` (fixed): the state object in an actor; readers `await` one snapshot.
enum ActorStateVariant {
    final class Trial: Sendable {
        let dataSource = ActorDataSource(initialState: CollectionState.initial)
        let observers = ObserverRegistry()
    }

    static let variant = Variant(
        name: "actor-state",
        kind: .fixed,
        summary: "the state object in an actor; updateState never suspends; a read awaits",
        makeState: { Trial() },
        asyncOperation: { trial, iteration in
            switch Role(iteration) {
            case .writer:
                await trial.dataSource.updateState { $0.next() }
            case .reader(let cell):
                let snapshot = await trial.dataSource.state
                var found = CollectionReader.audit(snapshot: snapshot, cell: cell)
                // A second await may return a newer state (so never mix two), but never an older one.
                let later = await trial.dataSource.state
                if let wentBack = Audit.olderAfterNewer(earlier: snapshot.version, later: later.version) {
                    found.append(wentBack)
                }
                iteration.record(found)
            case .observerAdder:
                await trial.dataSource.add(
                    observer: trial.observers.make(expectsCurrentState: true),
                    notifyOnAdded: true
                )
            }
        },
        check: { trial, info in
            let final = await trial.dataSource.state.version
            return TrialOutcome.observation(
                updates: Role.updates(in: info.iterations),
                finalVersion: final,
                problems: trial.observers.problems(finalVersion: final),
                readers: "reads await the actor"
            )
        }
    )
}

import RaceLab

/// What `racelab explore 3` runs: two tasks update the same item of one source; every update a
/// call reports applied must be in it afterwards.
///
/// The scheduling points are `call <method>` (marked here, so that reading the actor's items is
/// a step and not set-up) and the lesson's own `await load` window, which `ItemLoader` reaches off
/// the actor, while the method is suspended: exactly where another call can run on the actor. In
/// `in-flight-task` the shared load is a `RaceTask`: a thread of its own (`load task`), which the
/// callers wait for at `await load task`.
///
/// Between steps (`racelab play 3`, `explore --html`) it shows item 0's updates and the updates the
/// calls reported applied, read with `snapshot()` on the actor, and each suspended call's copy: what
/// it read before its `await`, and so what it will write back. That read waits for the actor, so
/// only a variant none of whose threads pauses while running on the actor can show it
/// (`showsState`): `in-flight-task` cannot, because `await load task` pauses inside the method.
extension ActorReentrancyLesson {
    static func sameItemExploration<Source: ItemSource>(
        _ method: StaticString,
        source: @escaping @Sendable () -> Source,
        showsState: Bool = true,
        apply: @escaping @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?
    ) -> Exploration {
        let describe: (@Sendable (SameItemTrial<Source>) async -> String)? = { trial in
            let updates = await trial.source.snapshot().items.first?.updates ?? []
            // Task i adds update i + 1: its copy is what it read before the await, plus its update.
            let copies = trial.copies.inFlight.map { copy in
                "task \(copy.update - 1) read \(copy.read) → will write \(copy.read + [copy.update])"
            }
            return
                (["item 0 has updates \(updates); calls reported applied \(trial.ledger.entries.keys.sorted())"]
                + copies).joined(separator: " · ")
        }
        return Exploration(
            summary:
                "two tasks each add one update to item 0; invariant: item 0 has every update a call reported applied",
            makeState: { SameItemTrial(source: source()) },
            asyncThread: { trial, index in
                Race.step(method)
                let update = index + 1
                let id = await ItemLoader.$copies.withValue(trial.copies) { await apply(trial.source, 0, update) }
                if let id { trial.ledger.record(update: update, appliedTo: id) }
            },
            invariant: { trial, _ in
                let updates = await trial.source.snapshot().items.first?.updates ?? []
                let reported = trial.ledger.entries.keys.sorted()
                let missing = reported.filter { !updates.contains($0) }
                return missing.isEmpty ? nil : "item 0 has updates \(updates); lost \(missing)"
            },
            describeState: showsState ? describe : nil
        ).markingEveryWindow()
    }
}

/// One explored execution: the source, and which updates the calls reported applied. A reload that
/// joined another's load reports none (it returns nil), so only reported updates are owed.
struct SameItemTrial<Source: ItemSource>: Sendable {
    let source: Source
    let ledger = UpdateLedger()
    /// The copies the calls' loads started from, while they are awaited.
    let copies = LoadCopies()
}

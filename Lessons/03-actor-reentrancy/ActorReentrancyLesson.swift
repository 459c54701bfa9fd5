import RaceLab

/// Lesson 3: an actor method that reads its state, awaits, and writes back what it computed undoes
/// whatever other callers did during the `await`, because actors are reentrant (SE-0306).
public enum ActorReentrancyLesson {
    public static let lesson = Lesson(
        number: 3,
        slug: "actor-reentrancy",
        title: "reentrant actor update",
        summary: "An actor method reads its items, awaits a load and writes the items back; calls that ran during "
            + "the await are undone: updates lost, cleared items back. No compiler error, no TSan report.",
        workload: Workload(trials: 200, iterations: 64),
        variants: [
            buggyUpdate, buggyReload, mainActorUpdate, awaitFirst, revalidate, stateObject, sharedLoad, mainActorOneJob,
        ],
        // The verdict's counts and each trial's outcome use the same two words.
        countMeanings: [
            "lost writes": "lost updates (updates a call reported applied, missing from their item) plus "
                + "vanished items (live items missing from the list), one each",
            "inconsistencies": "items a clear() removed that are back in the final list (resurrected items)",
        ]
    )

    /// Actor reentrancy is no data race: every access is isolated, so TSan has nothing to report and
    /// the compiler, which checks isolation only, accepts the bug as it accepts the fixes.
    static let everyAccessIsolated =
        "every access is isolated: nothing for TSan, and the compiler cannot tell the fix from the bug"

    /// Why the tools miss the buggy actor methods: the same words for each of them.
    static let reentrancyIsNoDataRace =
        "actor reentrancy is not a data race: every access is isolated, and isolation is all the compiler checks"

    static let buggyUpdate = variant(
        name: "buggy-update",
        kind: .buggy,
        summary: "updateItem: let items = self.items; await load; self.items = items with one item changed",
        explored: "call updateItem",
        because: reentrancyIsNoDataRace,
        apply: { source, slot, update in await source.updateItem(at: slot, update: update) }
    )

    static let buggyReload = variant(
        name: "buggy-reload",
        kind: .buggy,
        summary: "reloadItem: let item = items[i]; await loadUpdates(for: item); items[i] = loaded",
        explored: "call reloadItem",
        because: reentrancyIsNoDataRace,
        apply: { source, slot, update in await source.reloadItem(at: slot, update: update) }
    )

    static let mainActorUpdate = variant(
        name: "main-actor-update",
        kind: .buggy,
        summary: "a UI-actor component: var items = await source.items; change one; await source.writeBack(items)",
        explored: "call updateItem",
        because: "two isolated reads and writes on two actors: no data race, and isolation is all the compiler checks",
        apply: { source, slot, update in
            await CollectionComponent(dataSource: source).updateItem(at: slot, update: update)
        }
    )

    static let mainActorOneJob = variant(
        name: "main-actor-one-job",
        kind: .fixed,
        summary: "the UI-actor component hands the change to the source: one synchronous modifyItem job",
        explored: "call updateItemInOneJob",
        apply: { source, slot, update in
            await CollectionComponent(dataSource: source).updateItemInOneJob(at: slot, update: update)
        }
    )

    static let awaitFirst = variant(
        name: "await-first",
        kind: .fixed,
        summary: "await the load first, then read, change and write with no await in between",
        explored: "call updateItemAfterLoading",
        apply: { source, slot, update in await source.updateItemAfterLoading(at: slot, update: update) }
    )

    static let revalidate = variant(
        name: "revalidate",
        kind: .fixed,
        summary: "after the await, store only if the item read before is still there unchanged; else load again",
        explored: "call reloadItemRevalidating",
        apply: { source, slot, update in await source.reloadItemRevalidating(at: slot, update: update) }
    )

    static let stateObject = variant(
        name: "state-object",
        kind: .fixed,
        summary: "private state changed only by one synchronous update { state in ... } transform",
        explored: "call updateItem",
        source: { StateDataSource(items: TrialPlan.initialItems) },
        apply: { source, slot, update in await source.updateItem(at: slot, update: update) }
    )

    static let sharedLoad = variant(
        name: "in-flight-task",
        kind: .fixed,
        summary: "reloads only (no data of their own): one stored Task per item, a reload joins the load in "
            + "flight; checks no stale store",
        explored: "call reloadItem",
        showsState: false,
        apply: ownLoad,
        reload: { source, slot, load in await source.reloadItemSharingLoads(at: slot, load: load) },
        tally: { source in Tally(await source.sharedLoads, of: await source.liveReloads, sharedLoadsPhrase) }
    )

    /// How `explore 3` records an `in-flight-task` call: the call whose load made the copy owes it
    /// stored in its item; a call that joined got the same copy and owes nothing more. A copy that
    /// no load made (no updates) owes this call's load, which it lacks: the audit counts it missing,
    /// as `run 3` does.
    static let ownLoad: @Sendable (DataSourceActor, Int, Int) async -> Int? = { source, slot, load in
        guard let copy = await source.reloadItemSharingLoads(at: slot, load: load) else { return nil }
        return copy.updates.isEmpty || copy.updates.last == load ? copy.id : nil
    }

    /// What a correct `in-flight-task` trial kept, in its own words: its calls reload, so there is
    /// no update of their own to keep (`run 3`'s `consistent` outcome says so for the others).
    static let reloadsKept = "every reload got a loaded copy, none stored over a newer load, no removed item back"

    /// What `in-flight-task`'s tally counts, after `N of M`.
    static let sharedLoadsPhrase =
        "reloads that found their item joined a load in flight and returned its copy: a reload carries "
        + "no data of its own, so joining drops nothing"

    /// A variant on the lesson's `DataSourceActor`, holding `TrialPlan.initialItems` at the start
    /// of each trial: the source of every variant but `state-object`'s.
    static func variant(
        name: String,
        kind: VariantKind,
        summary: String,
        explored method: StaticString,
        because reason: String = everyAccessIsolated,
        showsState: Bool = true,
        apply: @escaping @Sendable (DataSourceActor, _ slot: Int, _ update: Int) async -> Int?,
        reload: (@Sendable (DataSourceActor, _ slot: Int, _ load: Int) async -> Item?)? = nil,
        tally: (@Sendable (DataSourceActor) async -> Tally)? = nil
    ) -> Variant {
        variant(
            name: name,
            kind: kind,
            summary: summary,
            explored: method,
            because: reason,
            showsState: showsState,
            source: { DataSourceActor(items: TrialPlan.initialItems) },
            apply: apply,
            reload: reload,
            tally: tally
        )
    }

    /// A variant whose iterations follow `TrialPlan`, updating items with `apply`, each iteration in
    /// its own task (the runner joins them before the audit). The same `source` and `apply` make its
    /// exploration (`sameItemExploration`, each task's first step named `explored`); on Linux, TSan
    /// is silent and the compiler accepts it, for the reason `because` gives; `showsState` as in
    /// `sameItemExploration`; `reload`, when given, makes the run's iterations reloads instead
    /// (`ReentrancyTrial.performReload`; the exploration still uses `apply`); `tally`, when given, counts what the design did in each trial
    /// (`Observation.tallies`).
    static func variant<Source: ItemSource>(
        name: String,
        kind: VariantKind,
        summary: String,
        explored method: StaticString,
        because reason: String = everyAccessIsolated,
        showsState: Bool = true,
        source: @escaping @Sendable () -> Source,
        apply: @escaping @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?,
        reload: (@Sendable (Source, _ slot: Int, _ load: Int) async -> Item?)? = nil,
        tally: (@Sendable (Source) async -> Tally)? = nil
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            makeState: { ReentrancyTrial(source: source()) },
            asyncOperation: { trial, iteration in
                if let reload {
                    await trial.performReload(iteration.index, reload: reload)
                } else {
                    await trial.perform(iteration.index, apply: apply)
                }
            },
            check: { trial, _ in
                var observation = await trial.audit()
                if reload != nil, observation.outcome == "consistent" { observation.meaning = reloadsKept }
                if let tally { observation.tallies.append(await tally(trial.source)) }
                return observation
            }
        )
        .exploring(
            sameItemExploration(method, source: source, showsState: showsState, reloads: reload != nil, apply: apply)
        )
        .expecting(tsan: .silent, compiler: .accepted, on: .linux, because: reason)
    }
}

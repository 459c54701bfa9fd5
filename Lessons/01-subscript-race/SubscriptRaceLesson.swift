import Foundation
import RaceLab

/// Lesson 1: a dictionary guarded by a concurrent queue behind a computed property loses keys,
/// because `contents[id] = data` is a get and a set in two work items.
public enum SubscriptRaceLesson {
    public static let lesson = Lesson(
        number: 1,
        slug: "subscript-race",
        title: "getter/setter subscript race",
        summary: "A dictionary behind a queue-guarded computed property: `contents[id] = data` reads and writes "
            + "in two separate work items, so concurrent stores overwrite each other.",
        workload: Workload(trials: 60, iterations: 1_000),
        variants: [buggy, fixed, actor],
        // Every variant counts lost keys only: the report leaves out duplicates and inconsistencies.
        countMeanings: ["lost writes": "keys stored that are missing from the store afterwards"]
    )

    static let buggy = storingOneKeyEach(
        "buggy",
        .buggy,
        summary:
            "contents[id] = data through a computed property: get (sync) and set (async barrier) are two work items",
        store: { Storage() },
        explored: { Storage(showingCopies: true) }
    )
    .expecting(
        tsan: .silent,
        compiler: .rejected,
        on: .linux,
        because:
            "every access goes through the queue (the race is between two synchronized steps); the class is not Sendable"
    )

    static let fixed = storingOneKeyEach(
        "fixed",
        .fixed,
        summary: "read and write in one barrier work item",
        store: { FixedStorage() }
    )
    .expecting(
        tsan: .silent,
        compiler: .rejected,
        on: .linux,
        because:
            "the queue guards every access; the compiler cannot see what a queue guards, so it refuses the class"
    )

    static let actor = Variant(
        name: "actor",
        kind: .fixed,
        summary: "an actor: each store runs whole, callers await it",
        makeState: { ActorStorage() },
        asyncOperation: { storage, iteration in await storage.store(payload, forIdentifier: key(iteration)) },
        check: { storage, trial in .kept(await storage.numberOfItems, of: trial.iterations, unit: "keys") }
    ).exploring(actorStoresOneKeyEach)
        .expecting(
            tsan: .silent,
            compiler: .accepted,
            on: .linux,
            because: "actor-isolated accesses: synchronized for TSan, verified by the compiler"
        )

    /// A variant in which every iteration stores a distinct key, so that after a trial the store
    /// must hold one key per iteration. The explorer runs the same store.
    private static func storingOneKeyEach<Store: KeyStore>(
        _ name: String,
        _ kind: VariantKind,
        summary: String,
        store makeStore: @escaping @Sendable () -> Store,
        explored makeExploredStore: (@Sendable () -> Store)? = nil
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            makeState: makeStore,
            operation: { storage, iteration in storage.store(payload, forIdentifier: key(iteration)) },
            check: { storage, trial in .kept(storage.numberOfItems, of: trial.iterations, unit: "keys") }
        ).exploring(storeOneKeyEach(makeExploredStore ?? makeStore))
    }

    private static let payload = Data([0x52, 0x4C])

    private static func key(_ iteration: Iteration) -> String {
        "item-\(iteration.index)"
    }
}

import RaceLab

/// The scenario: every iteration asks a shared cache for one of a few keys, so that many threads
/// miss the same key at once. A correct cache renders each key exactly once per trial, and returns
/// the right rendering to every caller.
///
/// The same variants serve the test target (`expectClean`, `expectReproduced`) and the `cache-check`
/// executable (`racelab run`'s commands, report and exit codes).
public enum CacheScenario {
    /// Distinct keys per trial: few enough that threads collide on them.
    static let keys = 8

    /// The buggy cache: lookup and insert each under the lock, the render outside it.
    public static let lockPerAccess = variant(
        name: "lock-per-access",
        kind: .buggy,
        summary: "lookup and insert each under the lock; render outside it",
        makeCache: { RenderCache(renderer: $0) },
        rendering: { $0.rendering(of: $1) }
    )

    /// The fix: lookup, render and insert under one lock.
    public static let lockWholeLookup = variant(
        name: "lock-whole-lookup",
        kind: .fixed,
        summary: "lookup, render and insert under one lock",
        makeCache: { LockedRenderCache(renderer: $0) },
        rendering: { $0.rendering(of: $1) }
    )

    public static let lesson = Lesson(
        number: 1,
        slug: "render-cache",
        title: "memo cache: render each key once",
        summary: "Concurrent requests for the same few keys: a cache must render each key once.",
        workload: Workload(trials: 200, iterations: 64),
        variants: [lockPerAccess, lockWholeLookup]
    )

    /// One variant for any cache type: the operation requests key `index % keys` and checks the
    /// answer; the check counts renders against the number of keys. The explorer runs
    /// `missTogether` on the same cache type.
    static func variant<Cache: Sendable>(
        name: String,
        kind: VariantKind,
        summary: String,
        makeCache: @escaping @Sendable (Renderer) -> Cache,
        rendering: @escaping @Sendable (Cache, Int) -> String
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            workload: Workload(trials: 200, iterations: 64),
            makeState: { () -> (cache: Cache, renderer: Renderer) in
                let renderer = Renderer()
                return (makeCache(renderer), renderer)
            },
            operation: { state, iteration in
                let id = iteration.index % keys
                let value = rendering(state.cache, id)
                if value != "<item \(id)>" { iteration.recordInconsistency("key \(id) returned \(value)") }
            },
            check: { state, _ in .executions(state.renderer.count, expected: keys, unit: "renders") }
        )
        .exploring(missTogether(makeCache: makeCache, rendering: rendering))
    }

    /// The explorer's version: two threads miss the same key; it must be rendered once.
    static func missTogether<Cache: Sendable>(
        makeCache: @escaping @Sendable (Renderer) -> Cache,
        rendering: @escaping @Sendable (Cache, Int) -> String
    ) -> Exploration {
        Exploration(
            summary: "two threads request key 0 of an empty cache; invariant: it is rendered once",
            makeState: { () -> (cache: Cache, renderer: Renderer) in
                let renderer = Renderer()
                return (makeCache(renderer), renderer)
            },
            thread: { state, _ in _ = rendering(state.cache, 0) },
            invariant: { state, _ in
                state.renderer.count == 1 ? nil : "key 0 rendered \(state.renderer.count) times"
            }
        )
    }
}

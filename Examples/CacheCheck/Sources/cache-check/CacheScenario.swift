import RaceLab

/// The scenario: every iteration asks a shared cache for one of a few keys, so that many threads
/// miss the same key at once. A correct cache renders each key exactly once per trial, and returns
/// the right rendering to every caller.
enum CacheScenario {
    /// Distinct keys per trial: few enough that threads collide on them.
    static let keys = 8

    static let lesson = Lesson(
        number: 1,
        slug: "render-cache",
        title: "memo cache: render each key once",
        summary: "Concurrent requests for the same few keys: a cache must render each key once.",
        workload: Workload(trials: 200, iterations: 64),
        variants: [
            variant(
                name: "lock-per-access",
                kind: .buggy,
                summary: "lookup and insert each under the lock; render outside it",
                makeCache: { RenderCache(renderer: $0) },
                rendering: { $0.rendering(of: $1) }
            ),
            variant(
                name: "lock-whole-lookup",
                kind: .fixed,
                summary: "lookup, render and insert under one lock",
                makeCache: { LockedRenderCache(renderer: $0) },
                rendering: { $0.rendering(of: $1) }
            ),
        ]
    )

    /// One variant for any cache type: the operation requests key `index % keys` and checks the
    /// answer; the check counts renders against the number of keys.
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
    }
}

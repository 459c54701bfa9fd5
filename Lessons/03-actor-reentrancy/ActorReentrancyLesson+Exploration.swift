import RaceLab

/// What `racelab explore 3` runs: two tasks update the same item of one source; both updates
/// must be in it afterwards.
///
/// The scheduling points are `call <method>` (marked here, so that reading the actor's items is
/// a step and not set-up) and the lesson's own `await load` window, which `ItemLoader` reaches off
/// the actor, while the method is suspended: exactly where another call can run on the actor.
extension ActorReentrancyLesson {
    static func sameItemExploration<Source: ItemSource>(
        _ method: StaticString,
        source: @escaping @Sendable () -> Source,
        apply: @escaping @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?
    ) -> Exploration {
        Exploration(
            summary: "two tasks each add one update to item 0; invariant: item 0 has both updates",
            makeState: source,
            asyncThread: { source, index in
                Race.step(method)
                _ = await apply(source, 0, index + 1)
            },
            invariant: { source, threads in
                let updates = await source.snapshot().items.first?.updates ?? []
                let missing = (1...threads).filter { !updates.contains($0) }
                return missing.isEmpty ? nil : "item 0 has updates \(updates); lost \(missing)"
            }
        )
    }
}

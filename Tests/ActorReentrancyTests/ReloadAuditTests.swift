import ActorReentrancy
import RaceLab
import Testing

/// `in-flight-task`'s run: iterations that reload (no data of their own), audited for stale stores.
@Suite("The reload audit of in-flight-task's run")
struct ReloadAuditTests {
    typealias Reload = @Sendable (DataSourceActor, _ slot: Int, _ load: Int) async -> Item?

    /// `in-flight-task`'s method, as its run calls it.
    static let sharing: Reload = { source, slot, load in await source.reloadItemSharingLoads(at: slot, load: load) }

    /// A broken twin: the article's `reloadItem`, which stores its copy at the slot it read, whatever
    /// item the slot holds by then; the copy it returns is the one it stored.
    static let stale: Reload = { source, slot, load in
        await source.reloadItem(at: slot, update: load).map { Item(id: $0, updates: [load]) }
    }

    /// Iteration 0 reloads slot 0 and is held in its load while iteration 7 refreshes the list
    /// (`TrialPlan`: the eighth of every 16 iterations), then its load returns.
    static func reloadAcrossRefresh(_ reload: @escaping Reload) async -> Observation {
        let trial = ReentrancyTrial(source: DataSourceActor(items: TrialPlan.initialItems))
        #expect(TrialPlan.step(for: 0) == .update(slot: 0, update: 0))
        #expect(TrialPlan.step(for: 7) == .refresh(generation: 8))
        let gate = LoadGate()
        let held = ItemLoader.$latency.withValue(
            { await gate.pass() },
            operation: { Task { await trial.performReload(0, reload: reload) } }
        )
        await gate.untilReached(1)
        await trial.performReload(7, reload: reload)
        gate.open()
        await held.value
        return await trial.audit()
    }

    @Test("a reload held across a refresh: the sharing method stores nothing stale")
    func sharingStoresNoStaleCopy() async {
        let observation = await Self.reloadAcrossRefresh(Self.sharing)
        #expect(observation.lostWrites == 0 && observation.inconsistencies == 0)
        #expect(observation.outcome == "consistent")
    }

    @Test("the same audit fails a method that stores its copy over the item the refresh put there")
    func staleStoreFails() async {
        let observation = await Self.reloadAcrossRefresh(Self.stale)
        // Item 0 (removed) is back at slot 0, and item 32 (live) is gone.
        #expect(observation.inconsistencies == 1)
        #expect(observation.lostWrites == 1)
    }

    @Test("the same audit fails a reload whose stored copy an older load overwrote")
    func overwrittenCopyFails() async {
        let trial = ReentrancyTrial(source: DataSourceActor(items: TrialPlan.initialItems))
        #expect(TrialPlan.step(for: 4) == .update(slot: 0, update: 4))
        let gate = LoadGate()
        let held = ItemLoader.$latency.withValue(
            { await gate.pass() },
            operation: { Task { await trial.performReload(0, reload: Self.stale) } }
        )
        await gate.untilReached(1)
        // Iteration 4 reloads slot 0 too, and stores [4]; the held load then stores [0] over it.
        await trial.performReload(4, reload: Self.stale)
        gate.open()
        await held.value
        let observation = await trial.audit()
        #expect(observation.lostWrites == 1)
        #expect(observation.inconsistencies == 0)
    }
}

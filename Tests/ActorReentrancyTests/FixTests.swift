import ActorReentrancy
import Testing

@Suite("The fixes, under the interleavings that break the article's methods")
struct FixTests {
    @Test("a clear() during the load stays done", arguments: Fix.allCases)
    func clearStaysDone(fix: Fix) async {
        #expect(await fix.play(ClearDuringLoad()).isConsistent)
    }

    @Test("an update of the same item during the load is kept", arguments: Fix.allCases)
    func sameItemUpdateKept(fix: Fix) async {
        let found = await fix.play(UpdateDuringLoad(slot: 0))
        #expect(found.isConsistent)
        #expect(found.expectedUpdates == 2)
    }

    @Test("an update of another item during the load is kept", arguments: Fix.allCases)
    func otherItemUpdateKept(fix: Fix) async {
        let found = await fix.play(UpdateDuringLoad(slot: 1))
        #expect(found.isConsistent)
        #expect(found.expectedUpdates == 2)
    }

    @Test("await-first lands on the item that is at the slot when the update arrives")
    func awaitFirstLandsOnTheNewItem() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
            await source.updateItemAfterLoading(at: slot, update: update)
        }
        _ = await ClearDuringLoad().play(scenario)
        #expect(await scenario.source.snapshot().items == [Item(id: 2, updates: [1]), Item(id: 3)])
    }

    @Test("revalidate drops an update whose item was cleared, and loads again when its item changed")
    func revalidateDropsOrRetries() async {
        let cleared = Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
            await source.reloadItemRevalidating(at: slot, update: update)
        }
        _ = await ClearDuringLoad().play(cleared)
        #expect(await cleared.source.snapshot().items == secondList)

        let changed = Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
            await source.reloadItemRevalidating(at: slot, update: update)
        }
        _ = await UpdateDuringLoad(slot: 0).play(changed)
        #expect(await changed.source.snapshot().items[0] == Item(id: 0, updates: [2, 1]))
    }

    @Test("a reload of an item whose load is in flight joins it instead of overwriting it")
    func inFlightTaskIsShared() async {
        let source = DataSourceActor(items: firstList)
        let scenario = Scenario(source: source) { source, slot, update in
            // The call whose load made the copy owes it; one that joined got the same copy.
            let copy = await source.reloadItemSharingLoads(at: slot, load: update)
            return copy?.updates.last == update ? copy?.id : nil
        }
        let gate = LoadGate()
        let first = scenario.startHeld(at: gate, slot: 0, update: 1)
        await gate.untilReached(1)
        let second = Task { await scenario.run(slot: 0, update: 2) }
        // The second reload cannot finish before the first, held one; wait until it has joined.
        while await source.sharedLoads == 0 { await Task.yield() }
        gate.open()
        #expect(await first.value == 0)
        #expect(await second.value == nil)
        #expect(await source.sharedLoads == 1)
        #expect(await source.liveReloads == 2)
        #expect(await scenario.findings().isConsistent)
        #expect(await source.snapshot().items[0] == Item(id: 0, updates: [1]))
    }

    @Test("a shared load whose item was cleared meanwhile is not stored")
    func inFlightTaskAfterClear() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
            // The call whose load made the copy owes it; one that joined got the same copy.
            let copy = await source.reloadItemSharingLoads(at: slot, load: update)
            return copy?.updates.last == update ? copy?.id : nil
        }
        #expect(await ClearDuringLoad().play(scenario).isConsistent)
        #expect(await scenario.source.snapshot().items == secondList)
    }
}

extension Fix: CustomTestStringConvertible {
    var testDescription: String { rawValue }
}

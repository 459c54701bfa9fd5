import ActorReentrancy
import Testing

@Suite("The article's actor methods, with another call wedged into their await")
struct ReentrantMethodTests {
    static let updateItem: Apply<DataSourceActor> = { source, slot, update in
        await source.updateItem(at: slot, update: update)
    }
    static let reloadItem: Apply<DataSourceActor> = { source, slot, update in
        await source.reloadItem(at: slot, update: update)
    }

    @Test("a clear() during updateItem's load is undone: the cleared items come back")
    func updateItemUndoesClear() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: Self.updateItem)
        let found = await ClearDuringLoad().play(scenario)
        #expect(found.resurrectedItems == 2)
        #expect(found.vanishedItems == 2)
        #expect(await scenario.source.snapshot().items == [Item(id: 0, updates: [1]), Item(id: 1)])
    }

    @Test("an update of another item during updateItem's load is lost")
    func updateItemLosesOtherItems() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: Self.updateItem)
        let found = await UpdateDuringLoad(slot: 1).play(scenario)
        #expect(found.lostUpdates == 1)
        #expect(found.expectedUpdates == 2)
        #expect(await scenario.source.snapshot().items == [Item(id: 0, updates: [1]), Item(id: 1)])
    }

    @Test("two reloads of one item: the one that finished first is overwritten")
    func reloadItemLosesAReload() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: Self.reloadItem)
        let found = await UpdateDuringLoad(slot: 0).play(scenario)
        #expect(found.lostUpdates == 1)
        #expect(await scenario.source.snapshot().items[0] == Item(id: 0, updates: [1]))
    }

    @Test("a reload of another item during reloadItem's load survives: only one element is written back")
    func reloadItemSparesOtherItems() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: Self.reloadItem)
        #expect(await UpdateDuringLoad(slot: 1).play(scenario).isConsistent)
    }

    @Test("after a clear and a new list, reloadItem stores the old item over the new one")
    func reloadItemResurrects() async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: Self.reloadItem)
        let found = await ClearDuringLoad().play(scenario)
        #expect(found.resurrectedItems == 1)
        #expect(found.vanishedItems == 1)
        #expect(await scenario.source.snapshot().items.map(\.id) == [0, 3])
    }

    @Test("with nothing wedged in, both methods are correct")
    func aloneTheyWork() async {
        for apply in [Self.updateItem, Self.reloadItem] {
            let scenario = Scenario(source: DataSourceActor(items: firstList), apply: apply)
            await scenario.run(slot: 0, update: 1)
            await scenario.run(slot: 0, update: 2)
            await scenario.run(slot: 1, update: 3)
            #expect(await scenario.findings().isConsistent)
            #expect(
                await scenario.source.snapshot().items == [Item(id: 0, updates: [1, 2]), Item(id: 1, updates: [3])]
            )
        }
    }
}

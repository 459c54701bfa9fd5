import Testing

@testable import ActorReentrancy

@Suite("The article's actor methods, with another call wedged into their await")
struct ReentrantMethodTests {
    static let updateItem: Apply<DataSourceActor> = { source, slot, update in
        await source.updateItem(at: slot, update: update)
    }
    static let reloadItem: Apply<DataSourceActor> = { source, slot, update in
        await source.reloadItem(at: slot, update: update)
    }

    /// A call wedged into a method's load, and what it leaves behind: the audit's findings and
    /// the final list, compared whole (no finding at all is a consistent list).
    struct Wedge: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var apply: Apply<DataSourceActor>
        /// The slot of the wedged update, or `nil` for a clear and a new list.
        var updateSlot: Int?
        var findings: ReentrancyAudit.Findings
        var items: [Item]
    }

    static let wedges = [
        Wedge(
            testDescription: "a clear() during updateItem's load is undone: the cleared items come back",
            apply: updateItem,
            updateSlot: nil,
            findings: .init(vanishedItems: 2, resurrectedItems: 2),
            items: [Item(id: 0, updates: [1]), Item(id: 1)]
        ),
        Wedge(
            testDescription: "an update of another item during updateItem's load is lost",
            apply: updateItem,
            updateSlot: 1,
            findings: .init(expectedUpdates: 2, lostUpdates: 1),
            items: [Item(id: 0, updates: [1]), Item(id: 1)]
        ),
        Wedge(
            testDescription: "two reloads of one item: the one that finished first is overwritten",
            apply: reloadItem,
            updateSlot: 0,
            findings: .init(expectedUpdates: 2, lostUpdates: 1),
            items: [Item(id: 0, updates: [1]), Item(id: 1)]
        ),
        Wedge(
            testDescription:
                "a reload of another item during reloadItem's load survives: only one element is written back",
            apply: reloadItem,
            updateSlot: 1,
            findings: .init(expectedUpdates: 2),
            items: [Item(id: 0, updates: [1]), Item(id: 1, updates: [2])]
        ),
        Wedge(
            testDescription: "after a clear and a new list, reloadItem stores the old item over the new one",
            apply: reloadItem,
            updateSlot: nil,
            findings: .init(vanishedItems: 1, resurrectedItems: 1),
            items: [Item(id: 0, updates: [1]), Item(id: 3)]
        ),
    ]

    @Test("a call wedged into a method's load: the findings and items it leaves", arguments: wedges)
    func wedgedCallBreaksTheList(wedge: Wedge) async {
        let scenario = Scenario(source: DataSourceActor(items: firstList), apply: wedge.apply)
        let found: ReentrancyAudit.Findings
        if let slot = wedge.updateSlot {
            found = await UpdateDuringLoad(slot: slot).play(scenario)
        } else {
            found = await ClearDuringLoad().play(scenario)
        }
        #expect(found == wedge.findings)
        #expect(await scenario.source.snapshot().items == wedge.items)
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

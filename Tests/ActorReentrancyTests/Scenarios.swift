import ActorReentrancy

/// A forced interleaving that can be played against any data source and way of applying updates.
protocol Interleaving {
    func play<Source: ItemSource>(_ scenario: Scenario<Source>) async -> ReentrancyAudit.Findings
}

/// Update 1 of slot 0 is held inside its load while the list is cleared and a new list is set;
/// then the load finishes.
struct ClearDuringLoad: Interleaving {
    func play<Source: ItemSource>(_ scenario: Scenario<Source>) async -> ReentrancyAudit.Findings {
        let gate = LoadGate()
        let held = scenario.startHeld(at: gate, slot: 0, update: 1)
        await gate.untilReached(1)
        await scenario.source.clear()
        await scenario.source.setItems(secondList)
        gate.open()
        _ = await held.value
        return await scenario.findings()
    }
}

/// Update 1 of slot 0 is held inside its load while update 2 of `slot` runs from start to end;
/// then the held load finishes.
struct UpdateDuringLoad: Interleaving {
    let slot: Int

    func play<Source: ItemSource>(_ scenario: Scenario<Source>) async -> ReentrancyAudit.Findings {
        let gate = LoadGate()
        let held = scenario.startHeld(at: gate, slot: 0, update: 1)
        await gate.untilReached(1)
        await scenario.run(slot: slot, update: 2)
        gate.open()
        _ = await held.value
        return await scenario.findings()
    }
}

/// The lesson's fixes that any interleaving of updates may be played against.
enum Fix: String, CaseIterable, Sendable {
    case awaitFirst = "await-first"
    case revalidate
    case stateObject = "state-object"

    func play(_ interleaving: some Interleaving) async -> ReentrancyAudit.Findings {
        switch self {
        case .awaitFirst:
            await interleaving.play(
                Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
                    await source.updateItemAfterLoading(at: slot, update: update)
                }
            )
        case .revalidate:
            await interleaving.play(
                Scenario(source: DataSourceActor(items: firstList)) { source, slot, update in
                    await source.reloadItemRevalidating(at: slot, update: update)
                }
            )
        case .stateObject:
            await interleaving.play(
                Scenario(source: StateDataSource(items: firstList)) { source, slot, update in
                    await source.updateItem(at: slot, update: update)
                }
            )
        }
    }
}

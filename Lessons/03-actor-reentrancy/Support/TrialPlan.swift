import RaceLab

/// What each iteration of a trial does to the data source: most update one of a few items, and one
/// in sixteen clears the list and loads a new one, the way a pull-to-refresh would.
///
/// Few items and many callers is deliberate: updates of the same item and whole-list changes must
/// meet inside each other's `await`, as they do in an app where the network answers while the user
/// refreshes.
public enum TrialPlan {
    /// Items in the list at any time.
    public static let slots = 4
    /// One iteration in this many refreshes the whole list instead of updating an item: the eighth
    /// of each run of sixteen, so that updates come after the last refresh of a trial too.
    public static let refreshEvery = 16

    public enum Step: Equatable, Sendable {
        /// Apply update number `update` to the item at `slot`.
        case update(slot: Int, update: Int)
        /// `clear()`, then `setItems` with a list of new ids from `generation`.
        case refresh(generation: Int)
    }

    /// The step iteration `index` performs.
    public static func step(for index: Int) -> Step {
        index % refreshEvery == refreshEvery / 2 - 1
            ? .refresh(generation: index + 1)
            : .update(slot: index % slots, update: index)
    }

    /// The list every trial starts from.
    public static var initialItems: [Item] {
        Item.generation(0, count: slots)
    }
}

/// One trial's shared state: the data source under test and the ledger of what its callers applied.
public final class ReentrancyTrial<Source: ItemSource>: Sendable {
    public let source: Source
    public let ledger = UpdateLedger()

    public init(source: Source) {
        self.source = source
    }

    /// Performs iteration `index`'s step, updating items with `apply` and recording what it reports.
    /// - Parameter apply: one variant's way of applying an update; returns the id of the item it
    ///   updated, or `nil` when it applied nothing.
    public func perform(
        _ index: Int,
        apply: @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?
    ) async {
        switch TrialPlan.step(for: index) {
        case .update(let slot, let update):
            if let id = await apply(source, slot, update) {
                ledger.record(update: update, appliedTo: id)
            }
        case .refresh(let generation):
            await source.clear()
            await source.setItems(Item.generation(generation, count: TrialPlan.slots))
        }
    }

    /// Performs iteration `index`'s step with reloads: where the plan updates a slot, this asks
    /// for a fresh copy of its item instead, with `reload`, and records the load that made the copy
    /// the call got back (its own or one it joined): a reload carries no data, so what it owes is a
    /// store of a loaded copy over its own item, not overwritten by a load that started earlier.
    /// - Parameter reload: returns the loaded copy the call got, or `nil` if the slot was empty.
    public func performReload(
        _ index: Int,
        reload: @Sendable (Source, _ slot: Int, _ load: Int) async -> Item?
    ) async {
        guard case .update(let slot, let load) = TrialPlan.step(for: index) else {
            return await perform(index) { _, _, _ in nil }
        }
        guard let copy = await reload(source, slot, load) else { return }
        // A copy's last update is the load that made it. A copy that no load made (no updates) is
        // recorded under a number no load adds (negative), so the audit counts it missing.
        ledger.record(update: copy.updates.last ?? -1 - index, appliedTo: copy.id)
    }

    /// The audit of the data source as the trial left it.
    public func audit() async -> Observation {
        ReentrancyAudit.observe(await source.snapshot(), applied: ledger.entries)
    }
}

import RaceLab

/// The article's data source as an actor: a list of items that many callers update.
///
/// The actor makes every *access* safe: no two of its methods run at the same time, so the list can
/// never be torn, the compiler accepts the code in the Swift 6 language mode, and ThreadSanitizer has
/// nothing to report. What it does not make safe is a method that reads, suspends at an `await`, and
/// then writes what it computed from the read: while it is suspended, the actor runs other methods.
/// The extensions hold the article's two buggy methods (`updateItem`, `reloadItem`) and three fixes.
public actor DataSourceActor: ItemSource {
    /// The list. Changed only by this actor's methods.
    var items: [Item]
    /// The ids the last whole-list change stored; kept for the audit, never read by the updates.
    private var liveIDs: Set<Int>
    /// Loads in progress, by item id. Used only by `reloadItemSharingLoads(at:load:)`. A
    /// `RaceTask` is a `Task` the schedule explorer can see: a second caller awaits the first one's.
    var inFlight: [Int: RaceTask<Item, Never>] = [:]
    /// How many reloads joined a load already in flight instead of starting their own: the work the
    /// de-duplication saved.
    public internal(set) var sharedLoads = 0
    /// How many of its reloads found their item: those that joined a load plus those that started one.
    public internal(set) var liveReloads = 0

    public init(items: [Item]) {
        self.items = items
        self.liveIDs = Set(items.map(\.id))
    }

    public func clear() {
        items = []
        liveIDs = []
    }

    public func setItems(_ newItems: [Item]) {
        items = newItems
        liveIDs = Set(newItems.map(\.id))
    }

    public func snapshot() -> SourceSnapshot {
        SourceSnapshot(items: items, liveIDs: liveIDs)
    }
}

/// What `CollectionComponent` calls from the UI actor.
extension DataSourceActor {
    /// The article's `setItems(items:)` as `updateItem` uses it: the list read earlier, changed and
    /// written back whole.
    ///
    /// Unlike `setItems(_:)`, which stands for loading a new list, this keeps the audit's record of
    /// live ids: a write-back brings no new items, so an item it returns after a `clear()` is
    /// reported as resurrected.
    public func writeBack(_ newItems: [Item]) {
        noteDamage(storing: newItems, by: "the component's updateItem")
        items = newItems
    }

    /// For the schedule explorer's timeline (a no-op elsewhere): says so, before `newItems` replaces
    /// the list, when it brings back an item a `clear()` removed over the list loaded since, or
    /// drops an update another call stored: the step where a whole-list write does the damage the
    /// audit finds at the end. (Between a `clear()` and the `setItems(_:)` after it, the list loaded
    /// next replaces what the write brings back: no damage yet.)
    func noteDamage(storing newItems: [Item], by method: String) {
        if items.contains(where: { liveIDs.contains($0.id) }),
            let back = newItems.first(where: { !liveIDs.contains($0.id) })
        {
            Race.failureSeen("\(method) stored back item \(back.id), which a clear() removed")
            return
        }
        for (now, new) in zip(items, newItems) where now.id == new.id && now.updates != new.updates {
            // Updates are only appended: a copy that starts with the list's updates drops none.
            guard !new.updates.starts(with: now.updates) else { continue }
            let kept = Set(new.updates)
            if let lost = now.updates.first(where: { !kept.contains($0) }) {
                Race.failureSeen("\(method) stored item \(now.id) without update \(lost), which another call stored")
                return
            }
        }
    }

    /// Applies `change` to the item at `slot`, reading and writing in one job: nothing can run
    /// between the read and the write, because the closure is synchronous and so is this method.
    /// - Returns: the id of the item it changed, or `nil` if there was no item at `slot`.
    public func modifyItem(at slot: Int, _ change: @Sendable (inout Item) -> Void) -> Int? {
        guard items.indices.contains(slot) else { return nil }
        change(&items[slot])
        return items[slot].id
    }
}

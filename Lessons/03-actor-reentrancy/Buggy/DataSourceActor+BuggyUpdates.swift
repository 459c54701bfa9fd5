import RaceLab

/// Two reentrant methods: the article's `reloadItem` and the lesson's whole-list `updateItem`. Both
/// compile without a warning in Swift 6 and have no data race; both are wrong.
extension DataSourceActor {
    /// Updates the item at `slot`: takes the list, awaits the load, writes the whole list back.
    ///
    /// Anything another caller did to the list during the `await` is overwritten by the copy taken
    /// before it: their updates are lost, and a `clear()` is undone, the cleared items return.
    /// - Returns: the id of the item it updated, or `nil` if there was no item at `slot`.
    public func updateItem(at slot: Int, update: Int) async -> Int? {
        let snapshot = items
        guard snapshot.indices.contains(slot) else { return nil }
        // hazard: actor reentrancy. `snapshot` is the list as it is now; while this method waits for
        // the load, other methods of this actor run and change `items`, and the write below puts the
        // old list back over whatever they did.
        let updated = await ItemLoader.loadUpdates(
            for: snapshot[slot],
            adding: update,
            then: "load done: write the list back"
        )
        var newItems = snapshot
        newItems[slot] = updated
        noteDamage(storing: newItems, by: "updateItem")
        items = newItems
        return updated.id
    }

    /// Reloads the item at `slot`: reads it, awaits its updates, stores the result at `slot`.
    ///
    /// Only one element is written back, so other items are safe, but this one is not: two reloads
    /// of it both start from the same copy and the later store drops the earlier one's update, and
    /// after a `clear()` and a reload of the list, `slot` holds a different item, which this store
    /// replaces with the old one.
    /// - Returns: the id of the item it reloaded, or `nil` if there was no item at `slot`.
    public func reloadItem(at slot: Int, update: Int) async -> Int? {
        guard items.indices.contains(slot) else { return nil }
        let item = items[slot]
        // hazard: actor reentrancy. `item` is a copy; while the load is awaited, `items` may change,
        // and `slot` may no longer hold this item at all.
        let updatedItem = await ItemLoader.loadUpdates(for: item, adding: update, then: "load done: store at index")
        // This check keeps a `clear()` from making the store below trap; it does not check that
        // `slot` still holds `item`, so it prevents the crash and none of the corruption.
        guard items.indices.contains(slot) else { return nil }
        let replaced = items[slot]
        items[slot] = updatedItem
        // For the schedule explorer's timeline (a no-op elsewhere): the step where the damage is done.
        if replaced.id != item.id {
            Race.failureSeen("reloadItem stored the old item \(item.id) over item \(replaced.id)")
        } else if let lost = replaced.updates.first(where: { !updatedItem.updates.contains($0) }) {
            Race.failureSeen("reloadItem stored item \(item.id) without update \(lost), which another call stored")
        }
        return item.id
    }
}

import RaceLab

/// The article's `CollectionComponentForActor`: a UI-side object, isolated to the UI's actor, that
/// updates an item of a `DataSourceActor` it does not own.
///
/// Both methods run on `UIActor`, one job at a time, and touch the data source only through its
/// actor. Neither has a data race, and Swift 6 accepts both. One is still wrong.
@UIActor
public final class CollectionComponent {
    public let dataSource: DataSourceActor

    public nonisolated init(dataSource: DataSourceActor) {
        self.dataSource = dataSource
    }

    /// The article's `updateItem`: reads the items (one `await`), changes the copy, writes the whole
    /// list back (a second `await`).
    ///
    /// The two awaits are two jobs on the data source. Between them the UI actor is not even
    /// involved: any other caller of the data source (another `updateItem`, a `clear()`) runs, and
    /// the write-back then replaces what it did with the copy read before. Updates are lost, and a
    /// list cleared in between comes back.
    /// - Returns: the id of the item it updated, or `nil` if there was no item at `slot`.
    public func updateItem(at slot: Int, update: Int) async -> Int? {
        var updatedItems = await dataSource.items
        guard updatedItems.indices.contains(slot) else { return nil }
        // hazard: two awaits, two jobs. `updatedItems` is the list as it was one job ago; a
        // `clear()` or another update can run on the data source before the write below.
        await Self.betweenTheAwaits(holding: updatedItems[slot], update: update)
        updatedItems[slot].updates.append(update)
        let id = updatedItems[slot].id
        await dataSource.writeBack(updatedItems)
        return id
    }

    /// The fix: hand the data source the change, not the changed list. `modifyItem` reads and writes
    /// in one synchronous job on the data source actor, so nothing can run in between; the UI actor
    /// awaits once.
    /// - Returns: the id of the item it updated, or `nil` if there was no item at `slot`.
    public func updateItemInOneJob(at slot: Int, update: Int) async -> Int? {
        await dataSource.modifyItem(at: slot) { item in item.updates.append(update) }
    }

    /// The time between the two awaits of `updateItem`, marked as a race window. It runs off both
    /// actors (a nonisolated async function, SE-0338), as the real gap does: the UI actor is free
    /// and the data source is free, so the runner's noise and the schedule explorer can place other
    /// jobs there. Calling it is one more hop off the UI actor, inside a gap the article's code has
    /// too: it widens that gap and opens no new one. The mark names what the call does when it goes
    /// on from there, as an explored step: it writes back the list it read before the gap. For the explorer's state line it records the copy held
    /// across the gap (`held`, the item as read) while the call waits there.
    nonisolated static func betweenTheAwaits(holding held: Item, update: Int) async {
        ItemLoader.copies?.began(update: update, item: held.id, from: held.updates)
        Race.window("write back the list it read")
        ItemLoader.copies?.ended(update: update)
    }
}

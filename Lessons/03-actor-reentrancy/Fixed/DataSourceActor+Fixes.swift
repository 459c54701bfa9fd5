import RaceLab

/// Three ways to keep an `await` from separating a read from the write that depends on it. Each
/// comment says what the method guarantees and what it does not.
extension DataSourceActor {
    /// Awaits first, then reads, changes and writes with no suspension in between.
    ///
    /// Guarantees: the update is applied to the list as it is when the update lands, and nothing can
    /// run between that read and that write (an actor method runs uninterrupted between `await`s).
    /// Requires: the load must not need anything read from the list, because it starts before the
    /// read. If `slot` was cleared meanwhile the update is dropped; if the list was replaced, the
    /// update lands on whichever item is at `slot` now.
    public func updateItemAfterLoading(at slot: Int, update: Int) async -> Int? {
        let fetched = await ItemLoader.fetchUpdate(update, then: "load done: read, add, write")
        // No `await` from here on: read, change and write are one uninterrupted actor job.
        guard items.indices.contains(slot) else { return nil }
        items[slot].updates.append(fetched)
        return items[slot].id
    }

    /// Reads, awaits the load, then checks that the item it read is still there and unchanged
    /// before storing; if it changed, loads again from the new copy.
    ///
    /// Guarantees: never stores a result computed from a stale copy, and never stores into a slot
    /// that now holds another item (that update is dropped: its item no longer exists). Costs: a load
    /// repeated each time another caller changed the item during the await; a retry only happens
    /// because someone else's change went through, so the callers as a whole always progress, but one
    /// unlucky caller can retry many times.
    public func reloadItemRevalidating(at slot: Int, update: Int) async -> Int? {
        while true {
            guard items.indices.contains(slot) else { return nil }
            let item = items[slot]
            let loaded = await ItemLoader.loadUpdates(
                for: item,
                adding: update,
                then: "load done: recheck; store or retry"
            )
            // Re-validate: what was read before the `await` may be stale now.
            guard let index = items.firstIndex(where: { $0.id == item.id }) else { return nil }
            if items[index] == item {
                items[index] = loaded
                return item.id
            }
        }
    }

    /// Reloads the item at `slot`: fetches a fresh copy of it, sharing a load already in flight for
    /// the same item instead of starting a second one; the stored `Task` is the de-duplication.
    ///
    /// Guarantees: at most one load per item at a time, so two reloads of one item can no longer
    /// overwrite each other; the result is stored only over the item its load started from, and only
    /// if that item still exists (a refresh may have come in during the await). Relies on reloads
    /// being the only writers of an item: an `updateItem` elsewhere could still change the item
    /// during the load, and this store would undo it. A caller that joins gets a load that started
    /// before it asked: right for a reload, which carries no data of its own, and wrong for an update
    /// that does.
    /// - Parameter load: the number the load this call starts adds to the copy (`ItemLoader`), which
    ///   tells the copies apart; a call that joins starts no load.
    /// - Returns: the loaded copy this call got, from its own load or the one it joined; `nil` if
    ///   there was no item at `slot`.
    public func reloadItemSharingLoads(at slot: Int, load: Int) async -> Item? {
        guard items.indices.contains(slot) else { return nil }
        let item = items[slot]
        liveReloads += 1
        if let running = inFlight[item.id] {
            sharedLoads += 1
            return await running.value
        }
        let task = RaceTask("load task") {
            await ItemLoader.loadUpdates(for: item, adding: load, then: "load done: end load task")
        }
        inFlight[item.id] = task
        let loaded = await task.value
        inFlight[item.id] = nil
        if let index = items.firstIndex(where: { $0.id == item.id }) { items[index] = loaded }
        return loaded
    }
}

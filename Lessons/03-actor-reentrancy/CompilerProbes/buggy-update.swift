// Compiler probe · lesson 3 · buggy-update
// The article's updateItem: read the items, await a load, write back the list read before the
// await. Actor reentrancy loses every change made during the suspension, and Swift 6 accepts the
// code: every access is isolated to the actor, which is all the compiler checks. No data race
// exists either, so TSan stays silent too; only a run that checks the result sees the bug.

actor DataSource {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func updateItem(at index: Int, update: Int) async {
        let items = self.items
        let updated = await loadUpdates(for: items[index], adding: update)
        var newItems = items
        newItems[index] = updated
        self.items = newItems
    }

    func clear() { items = [] }
}

func updateConcurrently() async {
    let source = DataSource()
    await callConcurrently { update in await source.updateItem(at: update % 4, update: update) }
}

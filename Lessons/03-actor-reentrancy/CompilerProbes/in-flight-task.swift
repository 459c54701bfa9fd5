// Compiler probe · lesson 3 · in-flight-task
// The fix: one stored Task per item; a second reload joins the load in flight instead of starting
// its own, and the result is stored only if the item still exists. Accepted.

actor DataSource {
    var items: [Item] = (0..<4).map { Item(id: $0) }
    private var inFlight: [Int: Task<Item, Never>] = [:]

    func reloadItem(at index: Int, update: Int) async {
        guard items.indices.contains(index) else { return }
        let item = items[index]
        if let running = inFlight[item.id] {
            _ = await running.value
            return
        }
        let load = Task { await loadUpdates(for: item, adding: update) }
        inFlight[item.id] = load
        let loaded = await load.value
        inFlight[item.id] = nil
        guard let current = items.firstIndex(where: { $0.id == item.id }) else { return }
        items[current] = loaded
    }
}

func reloadConcurrently() async {
    let source = DataSource()
    await callConcurrently { update in await source.reloadItem(at: update % 4, update: update) }
}

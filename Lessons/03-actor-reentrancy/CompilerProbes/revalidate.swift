// Compiler probe · lesson 3 · revalidate
// The fix: after the await, store only if the item read before is still there unchanged, and load
// again otherwise. Accepted.

actor DataSource {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func reloadItem(at index: Int, update: Int) async {
        while true {
            guard items.indices.contains(index) else { return }
            let item = items[index]
            let loaded = await loadUpdates(for: item, adding: update)
            guard let current = items.firstIndex(where: { $0.id == item.id }) else { return }
            if items[current] == item {
                items[current] = loaded
                return
            }
        }
    }
}

func reloadConcurrently() async {
    let source = DataSource()
    await callConcurrently { update in await source.reloadItem(at: update % 4, update: update) }
}

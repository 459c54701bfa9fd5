// Compiler probe · lesson 3 · buggy-reload
// The article's reloadItem: copy one item, await its reload, store the result at the same index.
// Accepted by Swift 6 (isolation is respected); wrong when the list changed during the await.

actor DataSource {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func reloadItem(at index: Int, update: Int) async {
        guard items.indices.contains(index) else { return }
        let item = items[index]
        let reloaded = await loadUpdates(for: item, adding: update)
        guard items.indices.contains(index) else { return }
        items[index] = reloaded
    }

    func replaceAll(with newItems: [Item]) { items = newItems }
}

func reloadConcurrently() async {
    let source = DataSource()
    await callConcurrently { update in await source.reloadItem(at: update % 4, update: update) }
}

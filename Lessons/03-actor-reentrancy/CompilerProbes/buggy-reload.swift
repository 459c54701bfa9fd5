// Compiler probe · lesson 3 · buggy-reload
// The article's reloadItem: copy one item, await its reload, store the result at the same index.
// Accepted by Swift 6 (isolation is respected); wrong when the list changed during the await.

struct Item: Sendable, Equatable {
    var id: Int
    var updates: [Int] = []
}

/// Stands in for a network call: the suspension point where other calls to the actor run.
func loadUpdates(for item: Item, adding update: Int) async -> Item {
    try? await Task.sleep(for: .microseconds(50))
    var loaded = item
    loaded.updates.append(update)
    return loaded
}

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
    await withTaskGroup(of: Void.self) { group in
        for update in 0..<100 {
            group.addTask { await source.reloadItem(at: update % 4, update: update) }
        }
    }
}

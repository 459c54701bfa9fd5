// Compiler probe · lesson 3 · await-first
// The fix: await first, then read, change and write with no await in between. Accepted, like the
// bug: the compiler cannot tell the two apart.

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

/// Stands in for fetching only the new data, before touching the actor's state.
func fetchUpdate(_ update: Int) async -> Int {
    try? await Task.sleep(for: .microseconds(50))
    return update
}

actor DataSource {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func updateItem(at index: Int, update: Int) async {
        let fetched = await fetchUpdate(update)
        guard items.indices.contains(index) else { return }
        items[index].updates.append(fetched)
    }
}

func updateConcurrently() async {
    let source = DataSource()
    await withTaskGroup(of: Void.self) { group in
        for update in 0..<100 {
            group.addTask { await source.updateItem(at: update % 4, update: update) }
        }
    }
}

// Compiler probe · lesson 3 · state-object
// The fix: the state is private and changes only through one synchronous transform, so no await can
// sit between a read and its write. Accepted.

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

struct State: Sendable {
    var items: [Item] = (0..<4).map { Item(id: $0) }
}

func fetchUpdate(_ update: Int) async -> Int {
    try? await Task.sleep(for: .microseconds(50))
    return update
}

actor DataSource {
    private var state = State()

    func update<Result: Sendable>(_ transform: @Sendable (inout State) -> Result) -> Result {
        transform(&state)
    }

    nonisolated func updateItem(at index: Int, update: Int) async {
        let fetched = await fetchUpdate(update)
        await self.update { state in
            if state.items.indices.contains(index) { state.items[index].updates.append(fetched) }
        }
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

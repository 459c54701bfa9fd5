// Compiler probe · lesson 3 · state-object
// The fix: the state is private and changes only through one synchronous transform, so no await can
// sit between a read and its write. Accepted.

struct State: Sendable {
    var items: [Item] = (0..<4).map { Item(id: $0) }
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
    await callConcurrently { update in await source.updateItem(at: update % 4, update: update) }
}

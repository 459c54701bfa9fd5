// Compiler probe · lesson 3 · await-first
// The fix: await first, then read, change and write with no await in between. Accepted, like the
// bug: the compiler cannot tell the two apart.

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
    await callConcurrently { update in await source.updateItem(at: update % 4, update: update) }
}

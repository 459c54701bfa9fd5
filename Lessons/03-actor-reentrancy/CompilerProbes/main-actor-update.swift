// Compiler probe · lesson 3 · main-actor-update
// The article's CollectionComponentForActor: a @MainActor class reads the data source's items
// (await), changes one, and writes the whole list back (await). A clear() or another update that
// runs on the data source between the two awaits is undone. Swift 6 accepts it: every access is
// isolated to one actor or the other, which is all the compiler checks; no data race for TSan.

actor DataSourceActor {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func setItems(items: [Item]) { self.items = items }
    func clear() { items = [] }
}

@MainActor
final class CollectionComponentForActor {
    let dataSource: DataSourceActor

    init(dataSource: DataSourceActor) { self.dataSource = dataSource }

    func updateItem(at index: Int, update: @Sendable (Item) -> Item) async {
        var updatedItems = await dataSource.items
        updatedItems[index] = update(updatedItems[index])
        await dataSource.setItems(items: updatedItems)
    }
}

@MainActor
func updateConcurrently(_ component: CollectionComponentForActor) async {
    await withTaskGroup(of: Void.self) { group in
        for update in 0..<100 {
            group.addTask { @MainActor in
                await component.updateItem(at: update % 4) { item in
                    var item = item
                    item.updates.append(update)
                    return item
                }
            }
        }
        group.addTask { await component.dataSource.clear() }
    }
}

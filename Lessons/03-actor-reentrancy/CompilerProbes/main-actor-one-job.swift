// Compiler probe · lesson 3 · main-actor-one-job
// The fix of main-actor-update: the @MainActor component hands the change to the data source,
// which reads and writes in one synchronous job. Accepted by Swift 6, exactly like the bug: the
// compiler checks isolation, not whether a read and its write stay in one job.

actor DataSourceActor {
    var items: [Item] = (0..<4).map { Item(id: $0) }

    func modifyItem(at index: Int, _ change: @Sendable (inout Item) -> Void) {
        guard items.indices.contains(index) else { return }
        change(&items[index])
    }

    func clear() { items = [] }
}

@MainActor
final class CollectionComponentForActor {
    let dataSource: DataSourceActor

    init(dataSource: DataSourceActor) { self.dataSource = dataSource }

    func updateItem(at index: Int, update: Int) async {
        await dataSource.modifyItem(at: index) { item in item.updates.append(update) }
    }
}

@MainActor
func updateConcurrently(_ component: CollectionComponentForActor) async {
    await withTaskGroup(of: Void.self) { group in
        for update in 0..<100 {
            group.addTask { @MainActor in await component.updateItem(at: update % 4, update: update) }
        }
        group.addTask { await component.dataSource.clear() }
    }
}

// Compiler probes · lesson 3 · prelude
// What every probe of this lesson shares, type-checked together with each of them (see
// CompilerProbe.preludeName): the item, the loads that stand in for network calls, and the
// concurrent callers. Each probe holds only its `DataSource`, the pattern it measures.

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

/// Runs `call(update)` for updates 0..<100 in as many child tasks, so calls to one actor interleave.
func callConcurrently(_ call: @escaping @Sendable (_ update: Int) async -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for update in 0..<100 {
            group.addTask { await call(update) }
        }
    }
}

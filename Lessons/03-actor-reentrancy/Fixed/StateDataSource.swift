/// The article's "safest" design in actor form: a private state object changed only by one
/// synchronous `update` transform.
///
/// The transform is not `async`, so it cannot contain an `await`: the compiler rejects one. Every
/// change therefore reads the state and writes the new state in one uninterrupted actor job, and no
/// caller can wedge itself in between. Slow work happens before, outside the transform.
///
/// What it does not prevent: a caller that reads the state, awaits something, and then feeds a value
/// computed from that old read into `update`. The design makes the right way the easy one; it cannot
/// make the wrong one impossible.
public actor StateDataSource: ItemSource {
    /// Readable by anyone: a value, so a reader's copy never changes under it.
    public private(set) var state: DataSourceState
    /// The ids the last whole-list change stored; kept for the audit only.
    private var liveIDs: Set<Int>

    public init(items: [Item]) {
        self.state = DataSourceState(items: items)
        self.liveIDs = Set(items.map(\.id))
    }

    /// Runs `transform` on the state, uninterrupted, and keeps its result as the new state.
    /// - Returns: whatever `transform` returns.
    public func update<Result: Sendable>(_ transform: @Sendable (inout DataSourceState) -> Result) -> Result {
        transform(&state)
    }

    public func clear() {
        state = DataSourceState(items: [])
        liveIDs = []
    }

    public func setItems(_ newItems: [Item]) {
        state = DataSourceState(items: newItems)
        liveIDs = Set(newItems.map(\.id))
    }

    public func snapshot() -> SourceSnapshot {
        SourceSnapshot(items: state.items, liveIDs: liveIDs)
    }
}

extension StateDataSource {
    /// Updates the item at `slot` the state-object way: the slow load first, then one synchronous
    /// transform that reads and writes the state of that moment.
    public nonisolated func updateItem(at slot: Int, update: Int) async -> Int? {
        let fetched = await ItemLoader.fetchUpdate(update, then: "load done: update the state")
        return await self.update { state in state.apply(fetched, at: slot) }
    }
}

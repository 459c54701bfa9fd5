/// What every data source of this lesson offers besides its way of updating an item: whole-list
/// changes and a look at its contents for the audit.
public protocol ItemSource: Actor {
    /// Removes every item (the article's `clear()`).
    func clear()
    /// Replaces the list, e.g. after reloading it from storage (the article's `setItems(items:)`).
    func setItems(_ newItems: [Item])
    /// The items now, and the ids the last `clear()` or `setItems(_:)` left: the only ids that may
    /// legitimately be in the list.
    func snapshot() -> SourceSnapshot
}

/// The state of a data source after a trial.
public struct SourceSnapshot: Sendable, Equatable {
    public var items: [Item]
    /// The ids stored by the last whole-list change. An item whose id is not here was removed and
    /// has come back.
    public var liveIDs: Set<Int>

    public init(items: [Item], liveIDs: Set<Int>) {
        self.items = items
        self.liveIDs = liveIDs
    }
}

import RaceLab

/// The article's data source as an actor: a list of items that many callers update.
///
/// The actor makes every *access* safe: no two of its methods run at the same time, so the list can
/// never be torn, the compiler accepts the code in the Swift 6 language mode, and ThreadSanitizer has
/// nothing to report. What it does not make safe is a method that reads, suspends at an `await`, and
/// then writes what it computed from the read: while it is suspended, the actor runs other methods.
/// The extensions hold the article's two buggy methods (`updateItem`, `reloadItem`) and three fixes.
public actor DataSourceActor: ItemSource {
    /// The list. Changed only by this actor's methods.
    var items: [Item]
    /// The ids the last whole-list change stored; kept for the audit, never read by the updates.
    private var liveIDs: Set<Int>
    /// Loads in progress, by item id. Used only by `reloadItemSharingLoads(at:update:)`. A
    /// `RaceTask` is a `Task` the schedule explorer can see: a second caller awaits the first one's.
    var inFlight: [Int: RaceTask<Item>] = [:]
    /// How many reloads joined a load already in flight instead of starting their own: the work the
    /// de-duplication saved.
    public internal(set) var sharedLoads = 0

    public init(items: [Item]) {
        self.items = items
        self.liveIDs = Set(items.map(\.id))
    }

    public func clear() {
        items = []
        liveIDs = []
    }

    public func setItems(_ newItems: [Item]) {
        items = newItems
        liveIDs = Set(newItems.map(\.id))
    }

    public func snapshot() -> SourceSnapshot {
        SourceSnapshot(items: items, liveIDs: liveIDs)
    }
}

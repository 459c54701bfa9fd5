/// One row of the data source: an identity and the updates applied to it so far.
///
/// `updates` lists the number of every update applied, which is what lets the audit tell a lost
/// update (applied, then overwritten by a stale copy) from one that never happened. `id` is unique
/// across generations: a list loaded afresh gets new ids, so an item that a `clear()` removed is
/// recognizable if it ever comes back.
public struct Item: Sendable, Equatable {
    public let id: Int
    public var updates: [Int]

    public init(id: Int, updates: [Int] = []) {
        self.id = id
        self.updates = updates
    }

    /// A freshly loaded list of `count` items whose ids belong to `generation` alone.
    public static func generation(_ generation: Int, count: Int) -> [Item] {
        (0..<count).map { Item(id: generation * count + $0) }
    }
}

/// The article's state object: everything the data source holds, as one value.
///
/// It is a struct of value types, so a copy handed to a reader can never change under it, and a
/// change is always "this whole state becomes that whole state", never a scattered set of property
/// writes.
public struct DataSourceState: Sendable, Equatable {
    public private(set) var items: [Item]

    public init(items: [Item]) {
        self.items = items
    }

    /// Applies update `update` to the item at `slot`, if there is one.
    /// - Returns: the id of the item updated, or `nil` if `slot` is empty.
    public mutating func apply(_ update: Int, at slot: Int) -> Int? {
        guard items.indices.contains(slot) else { return nil }
        items[slot].updates.append(update)
        return items[slot].id
    }
}

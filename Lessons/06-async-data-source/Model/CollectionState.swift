/// The header row of the collection.
///
/// It repeats facts about the state it belongs to (the version and the number of items), which is
/// what makes a header from one state shown above items from another state detectable.
public struct Header: Sendable, Equatable {
    public let version: Int
    public let itemCount: Int
}

/// One cell of the collection.
///
/// `title` and `detailedTitle` are written together and name the same version, like the two labels
/// `cellForItemAt` fills from one model item. A cell whose labels name different versions was
/// assembled from two states.
public struct Item: Sendable, Equatable {
    public let version: Int
    public let title: String
    public let detailedTitle: String

    public init(index: Int, version: Int) {
        self.version = version
        // Short enough to stay a small (inline, unallocated) String for any version below 10^5.
        title = "v\(version) #\(index)"
        detailedTitle = Item.detailedTitle(for: title)
    }

    /// The detailed title that goes with `title`.
    public static func detailedTitle(for title: String) -> String {
        title + " more"
    }
}

/// The footer row: it names the version of the state it belongs to.
public struct Footer: Sendable, Equatable {
    public let version: Int
}

/// Everything the collection shows, as one immutable value.
///
/// Every writer in this lesson moves from a state to its `next()`: the version goes up by one and
/// the number of items changes (2 to 5), so the header, the items and the footer of two different
/// versions never agree. A reader that holds one `CollectionState` value holds a state that existed.
public struct CollectionState: Sendable, Equatable {
    public let header: Header
    public let items: [Item]
    public let footer: Footer

    /// Every state has at least this many items, so a reader may ask for cells `0 ..< minimumItemCount`
    /// of any state without a bounds check.
    public static let minimumItemCount = 2

    /// The state every data source starts from.
    public static let initial = CollectionState(version: 0)

    /// The state a writer publishes as `version`: all three parts name that version.
    public init(version: Int) {
        let count = Self.minimumItemCount + version % 4
        header = Header(version: version, itemCount: count)
        items = (0..<count).map { Item(index: $0, version: version) }
        footer = Footer(version: version)
    }

    public var version: Int { header.version }

    /// The state a writer makes from this one.
    public func next() -> CollectionState {
        CollectionState(version: version + 1)
    }
}

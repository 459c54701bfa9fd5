import Dispatch
import RaceLab

/// The article's first data source: `header`, `items` and `footer` are public mutable properties,
/// changed together inside `change { }` blocks that run as barriers on the data source's queue.
///
/// The barrier keeps two `change` blocks apart, and each property is individually thread-safe (see
/// `LockedProperty`). Nothing keeps a *reader* out: the UI reads `dataSource.header`, then
/// `dataSource.items`, then `dataSource.footer`, and a `change` block can run between any two of
/// those reads. The reader then shows a header, items and footer that no writer ever published
/// together: a state that never existed. `read { }` would be safe, but the properties are public and
/// nothing makes the UI use it.
///
/// `@unchecked Sendable` is the type's claim to be thread-safe; the lesson shows what that claim misses.
public final class PublicPropertiesDataSource: @unchecked Sendable {
    /// A `RaceQueue`, so that the schedule explorer sees each `change` block as a thread of its own.
    private let queue = RaceQueue(label: "racelab.public-properties", qos: .userInitiated, attributes: .concurrent)
    private let headerStorage = LockedProperty(CollectionState.initial.header)
    private let itemsStorage = LockedProperty(CollectionState.initial.items)
    private let footerStorage = LockedProperty(CollectionState.initial.footer)

    /// Counts the property reads that found the property's lock taken.
    public let readerWaits = WaitMeter()

    public init() {}

    public var header: Header {
        get { headerStorage.get(meter: readerWaits) }
        set { headerStorage.set(newValue) }
    }

    public var items: [Item] {
        get { itemsStorage.get(meter: readerWaits) }
        set { itemsStorage.set(newValue) }
    }

    public var footer: Footer {
        get { footerStorage.get(meter: readerWaits) }
        set { footerStorage.set(newValue) }
    }

    /// The version the header names, read past the readers' meter: for the writer and the check,
    /// whose reads are no reader's.
    var publishedVersion: Int {
        headerStorage.get(meter: nil).version
    }

    /// Runs `block` as a barrier on the data source's queue: no other `change` or `read` runs with it.
    /// Readers that use the properties directly are not held back.
    public func change(_ block: @escaping @Sendable (PublicPropertiesDataSource) -> Void) {
        queue.async(flags: .barrier) { block(self) }
    }

    /// Runs `block` on the data source's queue, where no `change` can run beside it. The safe way to
    /// read, and the one nothing forces anybody to use.
    public func read(_ block: @escaping @Sendable (PublicPropertiesDataSource) -> Void) {
        queue.async { block(self) }
    }

    /// Waits until every `change` and `read` enqueued so far has run. For checks and tests.
    public func waitUntilIdle() {
        queue.sync(flags: .barrier) {}
    }
}

extension PublicPropertiesDataSource {
    /// The writer: "a network event arrived", the next state is assigned one property at a time.
    @inline(never)
    public func publishNextVersion() {
        change { dataSource in
            let next = CollectionState(version: dataSource.publishedVersion + 1)
            // A step, not a window: nothing is torn yet, but a schedule then shows the header's set
            // as a step of its own, not hidden in the barrier's start.
            Race.step("set header")
            dataSource.header = next.header
            // hazard: the header already names the new version while the items are still the old
            // ones; a reader between these lines pairs them.
            Race.window("set items, footer")
            dataSource.items = next.items
            dataSource.footer = next.footer
        }
    }

    /// The UI reader, as the collection view's callbacks read a data source with public properties:
    /// header, items and footer one by one, then one cell's title and detailed title in two reads
    /// (the footer and the title in one step, `read footer, title`).
    /// `log` (the schedule explorer's) is told each value read.
    @inline(never)
    public func render(cell index: Int, log: ReadLog? = nil) -> [Inconsistency] {
        // The header read is a step of its own (`read header`), so a schedule shows which state it saw.
        Race.window("read header")
        let header = self.header
        log?.note("header v\(header.version)")
        // hazard: the header is read; a `change` may replace the items before the next line.
        Race.window("read items")
        let items = self.items
        let itemVersions = Set(items.map(\.version)).sorted().map { "v\($0)" }.joined(separator: "/")
        log?.note("items " + itemVersions)
        // A mix shows from here, before the footer: the explorer marks this step.
        if items.contains(where: { $0.version != header.version }) {
            Race.failureSeen("mixed state: read header v\(header.version), then items \(itemVersions)")
        }
        Race.window("read footer, title")
        let footer = self.footer
        log?.note("footer v\(footer.version)")
        var found = [Audit.mixedState(header: header, items: items, footer: footer)]
        // hazard: `cellForItemAt` reads the data source again for the second label.
        found.append(CollectionReader.auditCellLabels(cell: index, items: { self.items }, log: log))
        return found.compactMap { $0 }
    }
}

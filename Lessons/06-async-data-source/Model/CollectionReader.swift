import RaceLab

/// The UI's reading code: what a collection view's callbacks read, written once for every variant.
///
/// Two styles, and the difference between them is the whole lesson:
/// - `audit(snapshot:cell:)` reads everything from *one* state value the reader already holds;
/// - `auditByRepeatedReads(cell:read:)` asks the data source again for every part, the way UI code
///   reads a property (`dataSource.state.items[i].title`, then `dataSource.state.items[i].detailedTitle`).
public enum CollectionReader {
    /// Reads header, items, footer and cell `index` from one snapshot. Whatever happens meanwhile,
    /// the parts agree, because they are parts of one value.
    public static func audit(snapshot: CollectionState, cell index: Int) -> [Inconsistency] {
        var found = [Audit.mixedState(header: snapshot.header, items: snapshot.items, footer: snapshot.footer)]
        let title = snapshot.items[index].title
        // Not a window: `snapshot` is a value nobody else can change. The mark is here so that noise
        // slows every reader at the same step.
        Race.window("read detailedTitle")
        found.append(Audit.tornCell(title: title, detailedTitle: snapshot.items[index].detailedTitle))
        return found.compactMap { $0 }
    }

    /// Reads header, items, footer and the two labels of cell `index` with a fresh `read()` each.
    ///
    /// Correct only if `read()` cannot return a different state within one call of this function:
    /// true on a queue that writes are synchronized into, false with a lock-guarded property.
    public static func auditByRepeatedReads(cell index: Int, read: () -> CollectionState) -> [Inconsistency] {
        let header = read().header
        // hazard (if the state can change while this runs): a new state may replace the old one here.
        Race.window("read items")
        let items = read().items
        Race.window("read footer")
        let footer = read().footer
        var found = [Audit.mixedState(header: header, items: items, footer: footer)]
        let title = read().items[index].title
        Race.window("read detailedTitle")
        let detailedTitle = read().items[index].detailedTitle
        found.append(Audit.tornCell(title: title, detailedTitle: detailedTitle))
        return found.compactMap { $0 }
    }

    /// Fills cell `index`'s two labels from two reads of the data source's items, as
    /// `cellForItemAt` does: the title, then, past the window in which the data source can install
    /// a newer state, the detailed title. Notes the version each label names in `log`; a cell whose
    /// labels name two versions is torn.
    public static func auditCellLabels(cell index: Int, items: () -> [Item], log: ReadLog?) -> Inconsistency? {
        let title = items()[index].title
        log?.note("title " + title.prefix { $0 != " " })  // the version it names
        // hazard (if the state can change between the two reads): a new state may be installed here.
        Race.window("read detailedTitle")
        let detailedTitle = items()[index].detailedTitle
        log?.note("detail " + detailedTitle.prefix { $0 != " " })
        return Audit.tornCell(title: title, detailedTitle: detailedTitle)
    }
}

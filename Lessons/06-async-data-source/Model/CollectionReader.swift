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
}

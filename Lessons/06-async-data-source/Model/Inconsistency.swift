import RaceLab

/// Something a reader or an observer saw that no correct run can show.
public struct Inconsistency: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// A header, items and footer that no writer ever published together.
        case mixedState = "mixed state"
        /// A cell whose title and detailed title come from two different states.
        case tornCell = "torn cell"
        /// A later read returned an older state than an earlier read: each state existed, but not
        /// in that order.
        case olderAfterNewer = "older after newer"
        /// An observer was told states out of order, twice, not at all, or not the last one.
        case observerOrder = "observer order"
    }

    public let kind: Kind
    public let detail: String

    /// An inconsistency, made where a reader or an observer sees it: under the schedule explorer
    /// the step that saw it first is marked on a failing schedule (`Race.failureSeen(_:)`).
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
        Race.failureSeen("\(kind.rawValue): \(detail)")
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}

/// The checks a reader makes on what it read. Each returns `nil` when what was read is possible.
public enum Audit {
    /// Whether a header, items and footer could all come from one state. What it reports is the
    /// story's symptom in its words: `header says 5 items, the list shows 2 (header v3, items v4,
    /// footer v3)`.
    public static func mixedState(header: Header, items: [Item], footer: Footer) -> Inconsistency? {
        let itemVersions = Set(items.map(\.version))
        if header.itemCount == items.count, header.version == footer.version,
            itemVersions.allSatisfy({ $0 == header.version })
        {
            return nil
        }
        let versions =
            "header v\(header.version), items "
            + (itemVersions.isEmpty ? "none" : itemVersions.sorted().map { "v\($0)" }.joined(separator: "/"))
            + ", footer v\(footer.version)"
        let symptom =
            header.itemCount == items.count
            ? "header, list and footer from different versions"
            : "header says \(header.itemCount) items, the list shows \(items.count)"
        return Inconsistency(.mixedState, "\(symptom) (\(versions))")
    }

    /// Whether a title and a detailed title, read one after the other, belong to one item.
    public static func tornCell(title: String, detailedTitle: String) -> Inconsistency? {
        if detailedTitle == Item.detailedTitle(for: title) { return nil }
        return Inconsistency(.tornCell, "title \"\(title)\" shown with detailed title \"\(detailedTitle)\"")
    }

    /// Whether a read made after another returned a state at least as new.
    public static func olderAfterNewer(earlier: Int, later: Int) -> Inconsistency? {
        if later >= earlier { return nil }
        return Inconsistency(.olderAfterNewer, "read v\(earlier), then v\(later)")
    }
}

extension Iteration {
    /// Records each inconsistency with the runner.
    func record(_ inconsistencies: [Inconsistency]) {
        for inconsistency in inconsistencies {
            recordInconsistency(inconsistency.description)
        }
    }
}

import RaceLab

/// Decides, after a trial, whether the data source ended in a state that its callers' operations,
/// each applied whole, could have produced.
///
/// Two facts are enough, and both are recorded at the moment they happen:
/// - the ids the last `clear()` or `setItems(_:)` stored (`SourceSnapshot.liveIDs`): only these may
///   be in the list at the end;
/// - every update a caller reported as applied, and to which item (`UpdateLedger`): if that item is
///   still live, the update must be in it.
///
/// An item in the list that is not live was removed and came back: a **resurrected item** (counted as
/// an inconsistency). A live item missing from the list, or a reported update missing from its live
/// item, is a **lost write**.
public enum ReentrancyAudit {
    public struct Findings: Equatable, Sendable {
        /// Updates reported applied to a live item.
        public var expectedUpdates = 0
        /// Of those, how many are missing.
        public var lostUpdates = 0
        /// Live items missing from the list (overwritten by an old copy).
        public var vanishedItems = 0
        /// Items in the list that a whole-list change had removed.
        public var resurrectedItems = 0
        /// Anything else impossible: an update in an item nobody applied to it, a duplicated id.
        public var strays = 0

        public var isConsistent: Bool {
            lostUpdates == 0 && vanishedItems == 0 && resurrectedItems == 0 && strays == 0
        }
    }

    /// Compares the final list with what the callers reported.
    /// - Parameter applied: update number to the id of the item it was applied to.
    public static func findings(_ snapshot: SourceSnapshot, applied: [Int: Int]) -> Findings {
        var findings = Findings()
        var present: [Int: Item] = [:]
        for item in snapshot.items {
            if present.updateValue(item, forKey: item.id) != nil { findings.strays += 1 }
            if !snapshot.liveIDs.contains(item.id) { findings.resurrectedItems += 1 }
        }
        findings.vanishedItems = snapshot.liveIDs.filter { present[$0] == nil }.count

        var updatesByItem: [Int: Set<Int>] = [:]
        for (update, id) in applied { updatesByItem[id, default: []].insert(update) }
        for id in snapshot.liveIDs {
            let reported = updatesByItem[id] ?? []
            findings.expectedUpdates += reported.count
            let kept = Set(present[id]?.updates ?? [])
            findings.lostUpdates += reported.subtracting(kept).count
            findings.strays += kept.subtracting(reported).count
        }
        return findings
    }

    /// The observation the runner adds up: lost updates and vanished items as lost writes,
    /// resurrected items and strays as inconsistencies. The outcome names only the kinds of damage,
    /// in the verdict's words (the lesson's `countMeanings` says what they are here), so a run's
    /// histogram has at most four rows.
    public static func observe(_ snapshot: SourceSnapshot, applied: [Int: Int]) -> Observation {
        let found = findings(snapshot, applied: applied)
        let lost = found.lostUpdates > 0 || found.vanishedItems > 0
        let resurrected = found.resurrectedItems > 0 || found.strays > 0
        let (outcome, meaning) =
            switch (lost, resurrected) {
            case (false, false): ("consistent", "every applied update kept, no removed item back")
            case (true, false): ("lost writes", "a stale copy overwrote updates applied during an await")
            case (false, true): ("inconsistencies", "a stale copy brought back items a clear() removed")
            case (true, true):
                ("lost writes + inconsistencies", "a stale copy brought back removed items and dropped newer updates")
            }
        var observation = Observation(
            expected: found.expectedUpdates,
            observed: found.expectedUpdates - found.lostUpdates,
            lostWrites: found.lostUpdates + found.vanishedItems,
            inconsistencies: found.resurrectedItems + found.strays,
            outcome: outcome,
            meaning: meaning
        )
        // Kinds of damage, not distances: rows read consistent, lost writes, inconsistencies, both.
        observation.rank = (lost ? 1 : 0) + (resurrected ? 2 : 0)
        return observation
    }
}

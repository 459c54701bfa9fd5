import Foundation
import RaceLab

/// What `racelab explore 3` runs: two tasks update the same item of one source; every update a
/// call reports applied must be in it afterwards. With `--threads 3` a third task refreshes the list
/// as `run 3` does (`clear()`, then `setItems` with new ids): the article's own hazard, a slot that
/// holds another item by the time a call resumes, and the audit of `run 3` as the invariant (no
/// item a `clear()` removed is back; every live item keeps the updates reported applied to it).
///
/// The scheduling points are `call <method>` (marked here, so that reading the actor's items is
/// a step and not set-up), the refresh's two calls, and the lesson's own `load done: …` window,
/// which `ItemLoader` reaches off the actor, while the method is suspended: exactly where another
/// call can run on the actor. Each is named for the step that runs when it is chosen. In
/// `in-flight-task` the shared load is a `RaceTask`: a thread of its own (`load task`), which the
/// callers wait for at `await load task`.
///
/// Between steps (`racelab play 3`, `explore --html`) it shows the item at slot 0 and the updates
/// the calls reported applied, read with `snapshot()` on the actor, and each suspended call's copy:
/// what it read before its `await`, and so what it will write back. That read waits for the actor,
/// so only a variant none of whose threads pauses while running on the actor can show it
/// (`showsState`): `in-flight-task` cannot, because `await load task` pauses inside the method.
extension ActorReentrancyLesson {
    /// Tasks from this index on refresh the list instead of updating item 0.
    static let firstRefreshingTask = 2

    /// - Parameter reloads: whether the calls reload item 0 (`in-flight-task`: each load adds its
    ///   number, and `apply` returns the item only for the call whose load made the copy) instead of
    ///   adding an update: the summary says which, and what the invariant then asks.
    static func sameItemExploration<Source: ItemSource>(
        _ method: StaticString,
        source: @escaping @Sendable () -> Source,
        showsState: Bool = true,
        reloads: Bool = false,
        apply: @escaping @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?
    ) -> Exploration {
        let twoTasks = sameItemSummary(threads: 2, reloads: reloads)
        let describe: (@Sendable (SameItemTrial<Source>) async -> String)? = { trial in
            let snapshot = await trial.source.snapshot()
            let first = snapshot.items.first
            // Task i adds update i + 1: its copy is what it read before the await, plus its update.
            // After a refresh the slot holds another item, or none: what the call does then is the
            // variant's own, so the line says what it holds and what the slot holds now.
            let copies = trial.copies.inFlight.map { copy in
                let task = "task \(copy.update - 1)"
                guard first?.id != copy.item else {
                    return "\(task) read \(copy.read) → will write \(copy.read + [copy.update])"
                }
                let now = first.map { "item \($0.id)" } ?? "nothing"
                return "\(task) holds item \(copy.item) as read, \(copy.read), plus update \(copy.update); "
                    + "slot 0 holds \(now) now"
            }
            let reported = "calls reported applied \(trial.ledger.entries.keys.sorted())"
            // A call that returns without applying changes nothing a state line shows: say so.
            let returned = trial.unapplied.updates.map { "task \($0 - 1) returned, nothing applied" }
            return ([slotZero(snapshot) + "; " + reported] + copies + returned).joined(separator: " · ")
        }
        return Exploration(
            summary: twoTasks,
            makeState: { SameItemTrial(source: source()) },
            asyncThread: { trial, index in
                if index >= firstRefreshingTask {
                    // A refresh, as `run 3` does it: two calls, so other calls can run between them.
                    Race.step("call clear()")
                    await trial.source.clear()
                    Race.step("call setItems(new ids)")
                    await trial.source.setItems(Item.generation(index - 1, count: TrialPlan.slots))
                    return
                }
                Race.step(method)
                let update = index + 1
                let id = await ItemLoader.$copies.withValue(trial.copies) { await apply(trial.source, 0, update) }
                if let id {
                    trial.ledger.record(update: update, appliedTo: id)
                } else {
                    trial.unapplied.insert(update)
                }
            },
            invariant: { trial, _ in damage(await trial.source.snapshot(), applied: trial.ledger.entries) },
            describeState: showsState ? describe : nil
        )
        .summarizing { threads in sameItemSummary(threads: threads, reloads: reloads) }
        // With a refresh, show the article's hazard: the old item stored over the new one.
        .preferringFailures { $0.contains("which clear() removed") }
        .markingEveryWindow()
    }

    /// What the exploration's tasks do and what its invariant asks, for `threads` tasks: the
    /// updates (or, with `reloads`, the reloads) of tasks 0 and 1, and the refreshes of the others.
    static func sameItemSummary(threads: Int, reloads: Bool) -> String {
        let each = reloads ? "each reload item 0" : "each add one update to item 0"
        guard threads > firstRefreshingTask else {
            return "two tasks \(each); invariant: "
                + (reloads
                    ? "item 0 has every load a call started (no stale store), and each call got a loaded copy"
                    : "item 0 has every update a call reported applied")
        }
        let refreshing =
            switch threads - firstRefreshingTask {
            case 1: "task \(firstRefreshingTask) refreshes"
            case 2: "tasks \(firstRefreshingTask) and \(threads - 1) each refresh"
            default: "tasks \(firstRefreshingTask) to \(threads - 1) each refresh"
            }
        return "tasks 0 and 1 \(each); \(refreshing) the list (clear(), then setItems with new ids); invariant: "
            + (reloads
                ? "no item clear() removed is back; every live item has every load a call started on it (no "
                    + "stale store); each call that found item 0 got a loaded copy"
                : "no item clear() removed is back, and every live item has every update a call reported "
                    + "applied to it")
    }

    /// The item at slot 0, as the state line shows it.
    static func slotZero(_ snapshot: SourceSnapshot) -> String {
        guard let first = snapshot.items.first else { return "the list is empty" }
        if first.id == 0 && snapshot.liveIDs.contains(0) { return "item 0 has updates \(first.updates)" }
        let removed = snapshot.liveIDs.contains(first.id) ? "" : " (clear() removed it)"
        return "slot 0 holds item \(first.id)\(removed) with updates \(first.updates)"
    }

    /// What is wrong with the final list, as `ReentrancyAudit` judges it, in one line; nil if the
    /// audit finds nothing.
    /// - Parameter applied: update number to the id of the item a call reported it applied to.
    static func damage(_ snapshot: SourceSnapshot, applied: [Int: Int]) -> String? {
        // The audit decides, so explore's verdict is run's; the lines below only say what it found.
        let findings = ReentrancyAudit.findings(snapshot, applied: applied)
        guard !findings.isConsistent else { return nil }
        let present = snapshot.items.map(\.id)
        let back = present.filter { !snapshot.liveIDs.contains($0) }
        let gone = snapshot.liveIDs.sorted().filter { !present.contains($0) }
        var parts: [String] = []
        if !back.isEmpty {
            parts.append("\(items(back)), which clear() removed, \(back.count == 1 ? "is" : "are") back")
        }
        if !gone.isEmpty { parts.append("\(items(gone)) \(gone.count == 1 ? "is" : "are") gone") }
        for item in snapshot.items where snapshot.liveIDs.contains(item.id) {
            let owed = applied.filter { $0.value == item.id }.keys.sorted()
            let lost = owed.filter { !item.updates.contains($0) }
            let unowed = item.updates.filter { !owed.contains($0) }
            if !lost.isEmpty { parts.append("item \(item.id) has updates \(item.updates); lost \(lost)") }
            if !unowed.isEmpty { parts.append("item \(item.id) has updates \(unowed) no call reported applied to it") }
        }
        // A duplicated id is the one finding the lines above do not name.
        return parts.isEmpty ? "the audit found \(findings)" : parts.joined(separator: "; ")
    }

    private static func items(_ ids: [Int]) -> String {
        ids.count == 1 ? "item \(ids[0])" : "items \(ids)"
    }
}

/// One explored execution: the source, and which updates the calls reported applied. In
/// `in-flight-task` a reload that joined another's load got that load's copy and reports nothing
/// of its own (`ownLoad`): the load is owed once, by the call that started it.
struct SameItemTrial<Source: ItemSource>: Sendable {
    let source: Source
    let ledger = UpdateLedger()
    /// The copies the calls' loads started from, while they are awaited.
    let copies = LoadCopies()
    /// The updates whose calls returned without applying them.
    let unapplied = UnappliedUpdates()
}

/// The updates whose calls returned nil (nothing applied), for the state lines.
final class UnappliedUpdates: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var returned: Set<Int> = []

    func insert(_ update: Int) {
        lock.lock()
        defer { lock.unlock() }
        returned.insert(update)
    }

    /// The updates, in order.
    var updates: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return returned.sorted()
    }
}

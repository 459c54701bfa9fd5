import ActorReentrancy
import Foundation
import RaceLab

/// Holds every load that reaches it until the test opens it: the test keeps one call suspended
/// inside its `await` while other calls run, which is the interleaving that breaks a reentrant actor
/// method, chosen instead of hoped for.
///
/// Bound as `ItemLoader.latency` for the tasks that should wait. A held load is a suspended
/// continuation, not a blocked thread, so the cooperative pool stays free for everything else.
final class LoadGate: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var arrivals = 0
    private var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// The latency step: returns at once when the gate is open, otherwise when it opens.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            arrivals += 1
            let ready = takeReadyWaiters()
            if isOpen {
                lock.unlock()
                continuation.resume()
            } else {
                held.append(continuation)
                lock.unlock()
            }
            for continuation in ready { continuation.resume() }
        }
    }

    /// Returns once `count` loads in all have reached the gate.
    func untilReached(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if arrivals >= count {
                lock.unlock()
                continuation.resume()
            } else {
                arrivalWaiters.append((count, continuation))
                lock.unlock()
            }
        }
    }

    /// Lets every held load (and every later one) through.
    func open() {
        lock.lock()
        isOpen = true
        let released = held
        held = []
        lock.unlock()
        for continuation in released { continuation.resume() }
    }

    /// Called with `lock` held.
    private func takeReadyWaiters() -> [CheckedContinuation<Void, Never>] {
        let ready = arrivalWaiters.filter { $0.count <= arrivals }.map(\.continuation)
        arrivalWaiters.removeAll { $0.count <= arrivals }
        return ready
    }
}

/// One way of applying an update to a data source, as a variant does: returns the id of the item it
/// updated, or `nil`.
typealias Apply<Source: ItemSource> = @Sendable (Source, _ slot: Int, _ update: Int) async -> Int?

/// A data source under a forced interleaving, with the ledger of what its callers applied.
struct Scenario<Source: ItemSource> {
    let source: Source
    let apply: Apply<Source>
    let ledger = UpdateLedger()

    /// Starts `update` on `slot` in a task of its own whose loads wait at `gate`.
    func startHeld(at gate: LoadGate, slot: Int, update: Int) -> Task<Int?, Never> {
        ItemLoader.$latency.withValue(
            { await gate.pass() },
            operation: { Task { await run(slot: slot, update: update) } }
        )
    }

    /// Applies `update` to `slot` now, with the default latency, and records what it reports.
    @discardableResult
    func run(slot: Int, update: Int) async -> Int? {
        let id = await apply(source, slot, update)
        if let id { ledger.record(update: update, appliedTo: id) }
        return id
    }

    /// The audit's findings for the data source as it is now.
    func findings() async -> ReentrancyAudit.Findings {
        ReentrancyAudit.findings(await source.snapshot(), applied: ledger.entries)
    }
}

/// Two items to start from (ids 0 and 1), and the two that replace them on a refresh (ids 2 and 3).
let firstList = Item.generation(0, count: 2)
let secondList = Item.generation(1, count: 2)

/// The lesson's variant called `name`.
func lessonVariant(_ name: String) -> Variant {
    guard let variant = ActorReentrancyLesson.lesson.variant(named: name) else {
        fatalError("lesson 3 has no variant named \(name)")
    }
    return variant
}

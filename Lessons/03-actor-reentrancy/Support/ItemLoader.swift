import Foundation
import RaceLab

/// Stands in for the slow, asynchronous work of the article (reading persistent data, a network
/// call): every load suspends its caller.
///
/// While an actor method is suspended in a load, the actor is free, and it runs other callers'
/// methods. That is reentrancy (SE-0306), and it is what this lesson is about.
public enum ItemLoader {
    /// The load's latency, as one asynchronous step. By default a single `Task.yield()`, the
    /// shortest suspension there is (a real load takes milliseconds). Tests bind a step that waits
    /// for their signal, to hold one call inside its load while other calls run: a chosen
    /// interleaving, without blocking a thread of the cooperative pool.
    @TaskLocal public static var latency: @Sendable () async -> Void = { await Task.yield() }

    /// Where the copies the calls hold across an `await` (a load, or the component's gap between
    /// its two awaits) are recorded while they wait, for the explorer's state line; nil (no record)
    /// outside it.
    @TaskLocal static var copies: LoadCopies?

    /// The article's `loadUpdates(for:)`: the item as the server now has it, computed from the copy
    /// the caller passed in. The result is only as fresh as that copy.
    /// - Parameter next: what the caller does once the load returns: the name of the step that runs
    ///   from the suspension on, as `racelab explore` and `play` show it.
    public static func loadUpdates(
        for item: Item,
        adding update: Int,
        then next: StaticString
    ) async -> Item {
        copies?.began(update: update, item: item.id, from: item.updates)
        await suspend(then: next)
        copies?.ended(update: update)
        var loaded = item
        loaded.updates.append(update)
        return loaded
    }

    /// The update alone, independent of any item's current contents: nothing read before the
    /// `await` is needed to apply it afterwards.
    /// - Parameter next: what the caller does once the load returns, as in `loadUpdates`.
    public static func fetchUpdate(_ update: Int, then next: StaticString) async -> Int {
        await suspend(then: next)
        return update
    }

    /// The window mark sits inside the suspension, where other actor work can run. It is named for
    /// the step a scheduler runs by choosing it: the load's return and what the caller does next.
    static func suspend(then next: StaticString) async {
        Race.window(next)
        await latency()
    }
}

/// The loads being awaited, each with the item its caller copied and the updates that copy held:
/// what that caller will write back when the load returns (its copy plus its update).
final class LoadCopies: @unchecked Sendable {
    private let lock = NSLock()
    private var copies: [(update: Int, item: Int, read: [Int])] = []

    func began(update: Int, item: Int, from read: [Int]) {
        lock.withLock { copies.append((update, item, read)) }
    }

    func ended(update: Int) {
        lock.withLock { copies.removeAll { $0.update == update } }
    }

    /// The loads awaited now, in the order they began.
    var inFlight: [(update: Int, item: Int, read: [Int])] {
        lock.withLock { copies }
    }
}

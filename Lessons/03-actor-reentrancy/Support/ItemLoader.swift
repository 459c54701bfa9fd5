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
    public static func loadUpdates(for item: Item, adding update: Int) async -> Item {
        copies?.began(update: update, from: item.updates)
        await suspend()
        copies?.ended(update: update)
        var loaded = item
        loaded.updates.append(update)
        return loaded
    }

    /// The update alone, independent of any item's current contents: nothing read before the
    /// `await` is needed to apply it afterwards.
    public static func fetchUpdate(_ update: Int) async -> Int {
        await suspend()
        return update
    }

    /// The window mark sits inside the suspension, where other actor work can run.
    static func suspend() async {
        Race.window("await load, then write back")
        await latency()
    }
}

/// The loads being awaited, each with the updates its caller's copy of the item held: what that
/// caller will write back when the load returns (its copy plus its update).
final class LoadCopies: @unchecked Sendable {
    private let lock = NSLock()
    private var copies: [(update: Int, read: [Int])] = []

    func began(update: Int, from read: [Int]) {
        lock.withLock { copies.append((update, read)) }
    }

    func ended(update: Int) {
        lock.withLock { copies.removeAll { $0.update == update } }
    }

    /// The loads awaited now, in the order they began.
    var inFlight: [(update: Int, read: [Int])] {
        lock.withLock { copies }
    }
}

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

    /// The article's `loadUpdates(for:)`: the item as the server now has it, computed from the copy
    /// the caller passed in. The result is only as fresh as that copy.
    public static func loadUpdates(for item: Item, adding update: Int) async -> Item {
        await suspend()
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

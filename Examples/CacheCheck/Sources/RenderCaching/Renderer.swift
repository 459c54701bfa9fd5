import Synchronization

/// The expensive work a cache exists to avoid repeating; it counts how often it ran, atomically, so
/// that the count is exact whatever the cache in front of it does.
public final class Renderer: Sendable {
    private let renders = Atomic<Int>(0)

    public init() {}

    @inline(never)
    public func render(_ id: Int) -> String {
        renders.wrappingAdd(1, ordering: .relaxed)
        return "<item \(id)>"
    }

    /// How many renders ran. Read it after every caller has returned.
    public var count: Int { renders.load(ordering: .acquiring) }
}

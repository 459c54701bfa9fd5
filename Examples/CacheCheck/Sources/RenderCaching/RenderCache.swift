import Foundation
import RaceLab

/// A memo cache as it is often first written: a lock around every read and every write of the
/// dictionary, and the expensive work done outside the lock so that it does not block other keys.
///
/// Each access is safe, and nothing crashes. But "look up, and if missing compute and insert" is a
/// check-then-act: two threads that miss the same key both compute it, and the second insert
/// silently replaces the first. Here that wastes work; with a cache of connections or of objects
/// with identity, two callers end up holding different "cached" instances.
public final class RenderCache: @unchecked Sendable {
    // RaceLock: an NSLock outside the explorer, a scheduling point inside it (with NSLock the
    // explorer would run each thread whole, and a clean exploration would prove nothing).
    private let lock = RaceLock("cache")
    /// Guarded by `lock`.
    private var rendered: [Int: String] = [:]
    private let renderer: Renderer

    public init(renderer: Renderer) {
        self.renderer = renderer
    }

    /// The rendering of `id`, computed on the first request and served from the cache afterwards.
    @inline(never)
    public func rendering(of id: Int) -> String {
        if let cached = lock.withLock({ rendered[id] }) {
            return cached
        }
        // hazard: the miss was decided under the lock, the insert happens under it again later;
        // every thread that misses `id` before the first insert renders it too.
        Race.window("render missing value")
        let value = renderer.render(id)
        lock.withLock { rendered[id] = value }
        return value
    }
}

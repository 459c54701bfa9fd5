import Foundation
import RaceLab

/// The fix: the lookup, the render and the insert happen under one lock, so a key is rendered at
/// most once.
///
/// The price is that a slow render blocks requests for every other key. When that matters, keep a
/// per-key "in flight" entry (a task or a condition) in the dictionary instead of the value, so
/// that a second caller waits for the first render rather than starting its own.
public final class LockedRenderCache: @unchecked Sendable {
    // RaceLock: an NSLock outside the explorer, a scheduling point inside it (with NSLock the
    // explorer would run each thread whole, and a clean exploration would prove nothing).
    private let lock = RaceLock("cache")
    /// Guarded by `lock`.
    private var rendered: [Int: String] = [:]
    private let renderer: Renderer

    public init(renderer: Renderer) {
        self.renderer = renderer
    }

    @inline(never)
    public func rendering(of id: Int) -> String {
        lock.withLock {
            if let cached = rendered[id] { return cached }
            let value = renderer.render(id)
            rendered[id] = value
            return value
        }
    }
}

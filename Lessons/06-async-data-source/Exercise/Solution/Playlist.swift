// Exercise 6, reference solution: one immutable state value, replaced whole and read whole under
// one lock. A reader gets the state before a replace or after it, never half of each.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`; replaced as a whole, never changed piece by piece.
    private var state = PlaylistSnapshot(title: "", items: [])

    init() {}

    @inline(never)
    func replace(title: String, items: [Int]) {
        let next = PlaylistSnapshot(title: title, items: items)
        // A writer paused here has stored nothing yet: the other writer's version stays whole.
        Race.window("before the one store")
        lock.withLock { state = next }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        lock.withLock { state }
    }
}

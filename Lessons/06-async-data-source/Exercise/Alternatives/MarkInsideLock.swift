// Exercise 6, another fix that passes: the reference solution with its mark inside the lock. A
// writer paused there holds the lock, so the other writer cannot store until the pause ends on the
// check's 1 s limit; the check then passes that mark without pausing in its later trials.
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
        lock.withLock {
            // A writer paused here holds the lock: the other waits for it, and stores after it.
            Race.window("inside the lock")
            state = next
        }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        lock.withLock { state }
    }
}

// expect-diagnosis: unsynced-read
// A wrong fix for exercise 6 (CI checks that it FAILS, read from the code): one struct, written under
// the lock, but `snapshot()` returns it with no lock. The run mostly sees whole versions (a struct
// copied in one go), yet a read during the locked write is a data race.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let lock = NSLock()
    private var state = PlaylistSnapshot(title: "", items: [])

    init() {}

    @inline(never)
    func replace(title: String, items: [Int]) {
        let next = PlaylistSnapshot(title: title, items: items)
        Race.window("before the store")
        lock.withLock { state = next }
    }

    /// One struct, read in one go: never half of one version.
    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        state
    }
}

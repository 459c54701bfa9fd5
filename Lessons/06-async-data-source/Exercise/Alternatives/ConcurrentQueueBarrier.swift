// Exercise 6, another fix that passes: one state value behind a concurrent queue, replaced whole in
// a barrier block and read whole in `queue.sync` (the lesson's StateDataSource). The mark is in the
// barrier block, on a queue thread: the check pauses it there too.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let queue = DispatchQueue(label: "playlist", attributes: .concurrent)
    /// Read in `queue.sync`, replaced in a barrier block: never changed piece by piece.
    private var current = PlaylistSnapshot(title: "", items: [])

    init() {}

    @inline(never)
    func replace(title: String, items: [Int]) {
        let next = PlaylistSnapshot(title: title, items: items)
        queue.async(flags: .barrier) {
            // A writer paused here has stored nothing yet, and the barrier keeps the other out.
            Race.window("before the store")
            self.current = next
        }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        queue.sync { current }
    }
}

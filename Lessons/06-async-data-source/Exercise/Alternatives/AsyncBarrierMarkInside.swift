// Exercise 6, another fix that passes: the starter's two properties kept, behind a concurrent queue
// instead of a lock: replace(title:items:) stores both in one `async(flags: .barrier)` block, with
// the mark kept between the stores, and snapshot() reads both in one `queue.sync`. The mark runs in
// the barrier block, on a queue thread: the writers-only trials pause it there, and the run from
// many threads says it runs on the queue's thread, where the stress run adds no pause.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let queue = DispatchQueue(label: "playlist", attributes: .concurrent)
    private var _title = ""
    private var _items: [Int] = []

    init() {}

    @inline(never)
    func replace(title newTitle: String, items newItems: [Int]) {
        queue.async(flags: .barrier) {
            // A writer paused here has stored half, but the barrier keeps readers and writers out.
            self._items = newItems
            Race.window("between items and title")
            self._title = newTitle
        }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        queue.sync { PlaylistSnapshot(title: _title, items: _items) }
    }
}

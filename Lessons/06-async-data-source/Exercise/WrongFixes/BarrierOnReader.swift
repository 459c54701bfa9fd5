// A wrong fix for exercise 6 (CI checks that it FAILS): the barrier on the reader, not the writer.
// Writers run in plain `async` blocks on a concurrent queue, so two of them store at once: a data
// race on `value`. One struct stored in one go mostly looks whole to the run; ThreadSanitizer,
// which the check runs after a clean run, reports the race.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let queue = DispatchQueue(label: "playlist", attributes: .concurrent)
    private var value = PlaylistSnapshot(title: "", items: [])

    init() {}

    @inline(never)
    func replace(title newTitle: String, items newItems: [Int]) {
        queue.async {
            Race.window("before the store")
            self.value = PlaylistSnapshot(title: newTitle, items: newItems)
        }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        queue.sync(flags: .barrier) { value }
    }
}

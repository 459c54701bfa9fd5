// Exercise 6: make `Playlist` never show a state nobody wrote.
//
// `Playlist` keeps its title and its items as two properties, each get and set taking the one lock
// on its own (each property "atomic"). A writer replaces both with `replace(title:items:)`; a
// reader takes a `snapshot()` to draw its screen: the title in the header, the items as rows.
// Every single read and write is thread-safe, yet readers sometimes get the title of one version
// beside the items of another.
// Fix `Playlist` so that every snapshot is exactly one version some writer stored.
//
// Rules:
// - Keep the API: `init()`, `replace(title:items:)`, `snapshot() -> PlaylistSnapshot` (the harness
//   defines `PlaylistSnapshot(title:items:)`). No `async` func; GCD (`queue.async`) is fine.
// - A snapshot after `replace(title: t, items: xs)` (and no other write) must have `title == t` and
//   `items == xs`. The title is the writer's own: two versions may have the same items and
//   different titles, so it cannot be worked out from the items.
//
// `Race.window("...")` is a RaceLab mark: under the checker a thread may pause there for a moment,
// the way a busy machine would pause it. A mark never creates a bug, it only widens a window that
// is already there. Deleting it does not fix anything; it only makes the bug harder to see. The
// check pauses one writer at the first mark in `replace(title:items:)` while another writes: keep
// one there (before the store, or between stores), or that part of the check tests nothing.
//
// Check your fix:   make exercise-6        (PASS, or FAIL with how many torn snapshots)
// Hints, one at a time: Lessons/06-async-data-source/Exercise/hints.md
// Start over:       make exercise-6-reset
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let lock = NSLock()
    private var _title = ""
    private var _items: [Int] = []

    /// Each property is "atomic": its get and its set take the lock.
    private var title: String {
        get { lock.withLock { _title } }
        set { lock.withLock { _title = newValue } }
    }

    private var items: [Int] {
        get { lock.withLock { _items } }
        set { lock.withLock { _items = newValue } }
    }

    init() {}

    @inline(never)
    func replace(title newTitle: String, items newItems: [Int]) {
        items = newItems
        Race.window("between items and title")
        title = newTitle
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        let title = self.title
        Race.window("between title and items")
        return PlaylistSnapshot(title: title, items: items)
    }
}

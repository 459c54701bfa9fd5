// Exercise 6: make `Playlist` never show a state nobody wrote.
//
// `Playlist` keeps its items and their count as two properties, each behind the lock (each one
// "atomic"). A writer replaces the list with `replace(with:)`; a reader takes a `snapshot()` to
// draw its screen. Every single read and write is thread-safe, yet readers sometimes get a
// snapshot whose count does not match its items: the count of one version beside the items of
// another. Fix `Playlist` so that every snapshot is exactly one version some writer stored.
//
// Rules:
// - Keep the API: `init()`, `replace(with:)`, `snapshot() -> PlaylistSnapshot` (the harness
//   defines `PlaylistSnapshot(count:items:)`). No `async`.
// - A snapshot after `replace(with: xs)` (and no other write) must have `items == xs` and
//   `count == xs.count`.
//
// `Race.window("...")` is a RaceLab mark: under the checker a thread may pause there for a moment,
// the way a busy machine would pause it. A mark never creates a bug, it only widens a window that
// is already there. Deleting it does not fix anything; it only makes the bug harder to see.
//
// Check your fix:   make exercise-6        (PASS, or FAIL with how many torn snapshots)
// Hints, one at a time: Lessons/06-async-data-source/Exercise/hints.md
// Start over:       make exercise-6-reset
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let lock = NSLock()
    private var _items: [Int] = []
    private var _count = 0

    /// Each property is "atomic": its get and its set take the lock.
    private var items: [Int] {
        get { lock.withLock { _items } }
        set { lock.withLock { _items = newValue } }
    }

    private var count: Int {
        get { lock.withLock { _count } }
        set { lock.withLock { _count = newValue } }
    }

    init() {}

    @inline(never)
    func replace(with newItems: [Int]) {
        items = newItems
        Race.window("between items and count")
        count = newItems.count
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        let count = self.count
        Race.window("between count and items")
        return PlaylistSnapshot(count: count, items: items)
    }
}

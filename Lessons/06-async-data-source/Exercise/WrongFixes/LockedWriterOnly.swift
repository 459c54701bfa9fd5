// A common wrong fix for exercise 6 (CI checks that it FAILS): hold the lock across the writer's
// two stores, but let the reader still take two separate looks. The writer is whole; the reader
// can still read the count before a replace and the items after it.
import Foundation
import RaceLab

final class Playlist: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Int] = []
    private var count = 0

    init() {}

    @inline(never)
    func replace(with newItems: [Int]) {
        lock.withLock {
            items = newItems
            count = newItems.count
        }
    }

    @inline(never)
    func snapshot() -> PlaylistSnapshot {
        let count = lock.withLock { self.count }
        Race.window("between count and items")
        return PlaylistSnapshot(count: count, items: lock.withLock { items })
    }
}

// Exercise 1: make `Storage` keep every key.
//
// `Storage` guards its dictionary with a concurrent queue: reads with `queue.sync`, writes with an
// asynchronous barrier, all through the computed property `contents`. Each single read and each
// single write is safe. Yet when many threads call `store(_:forIdentifier:)` at once, keys go
// missing. Find out why, and fix `Storage` so that concurrent stores never lose a key.
//
// Rules:
// - Keep the API: `init()`, `store(_:forIdentifier:)`, `data(forIdentifier:)`, `numberOfItems`.
// - Every store must end up in the dictionary and be readable with `data(forIdentifier:)`.
// - `Storage` must stay usable from synchronous code (no `async` methods).
//
// `Race.window("...")` is a RaceLab mark: under the checker a thread may pause there for a moment,
// the way a busy machine would pause it. A mark never creates a bug, it only widens a window that
// is already there. Deleting it does not fix anything; it only makes the bug harder to see.
//
// Check your fix:   make exercise-1        (PASS, or FAIL with how many keys were lost)
// Hints, one at a time: Lessons/01-subscript-race/Exercise/hints.md
// Start over:       make exercise-1-reset
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let queue = DispatchQueue(label: "exercise.storage", attributes: .concurrent)
    private var _contents: [String: Data] = [:]

    private var contents: [String: Data] {
        get {
            queue.sync { _contents }
        }
        set {
            Race.window("set contents")
            queue.async(flags: .barrier) { self._contents = newValue }
        }
    }

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    func data(forIdentifier id: String) -> Data? {
        contents[id]
    }

    var numberOfItems: Int {
        contents.count
    }
}

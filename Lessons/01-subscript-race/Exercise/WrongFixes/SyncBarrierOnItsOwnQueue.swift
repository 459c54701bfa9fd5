// expect-diagnosis: sync-onto-own-queue
// The commonest wrong fix for exercise 1 (CI checks that it FAILS with this diagnosis): wrap the
// store in `queue.sync(flags: .barrier)` and keep writing through the computed property. Its
// getter calls `queue.sync` from inside the barrier block, on the queue that block already runs
// on: the call waits for the queue and the queue waits for the call. libdispatch stops that
// deadlock with a trap (SIGILL in __DISPATCH_WAIT_FOR_QUEUE__) at the very first store.
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
            _contents = newValue
        }
    }

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        queue.sync(flags: .barrier) {
            contents[id] = data
        }
    }

    func data(forIdentifier id: String) -> Data? {
        contents[id]
    }

    var numberOfItems: Int {
        contents.count
    }
}

// expect-diagnosis: unsynced-read
// A wrong fix for exercise 1 (CI checks that it FAILS, and that the checker reads why from the
// code): the reference fix (the whole store in one barrier work item on `_contents`) plus the
// shortcut "reads don't need the queue": `data(forIdentifier:)` reads `_contents` with no queue call.
// No key is lost, but that read can run while a barrier writes the dictionary: a data race, whose
// outcome Swift does not define (it can crash). The run shows it only by luck.
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
        queue.async(flags: .barrier) {
            self._contents[id] = data
        }
    }

    func data(forIdentifier id: String) -> Data? {
        _contents[id]  // "reads don't need the queue"
    }

    var numberOfItems: Int {
        queue.sync { _contents.count }
    }
}

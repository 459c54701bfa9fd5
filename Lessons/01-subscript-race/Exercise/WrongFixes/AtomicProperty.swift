// expect-diagnosis: lost-writes
// A common wrong fix for exercise 1 (CI checks that it FAILS): make `contents` "atomic" with a lock
// around its getter and a lock around its setter. Each access is now locked; the get-change-set of
// `contents[id] = data` is still two locked steps with a gap between them, so stores still lose keys.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let lock = NSLock()
    private var _contents: [String: Data] = [:]

    private var contents: [String: Data] {
        get { lock.withLock { _contents } }
        set {
            Race.window("set contents")
            lock.withLock { _contents = newValue }
        }
    }

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    func data(forIdentifier id: String) -> Data? { contents[id] }

    var numberOfItems: Int { contents.count }
}

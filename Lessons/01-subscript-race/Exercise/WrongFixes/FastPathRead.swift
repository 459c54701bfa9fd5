// expect-diagnosis: unsynced-read
// A wrong fix for exercise 1 (CI checks that it FAILS, read from the code): a lock-free "fast path"
// read of the dictionary before the locked one. That read can run while a store writes: a data
// race, though the getter takes the lock too.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let lock = NSLock()
    private var contents: [String: Data] = [:]

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        lock.lock()
        defer { lock.unlock() }
        contents[id] = data
    }

    func data(forIdentifier id: String) -> Data? {
        if let hit = contents[id] { return hit }
        return lock.withLock { contents[id] }
    }

    var numberOfItems: Int {
        lock.withLock { contents.count }
    }
}

// expect-diagnosis: lock-taken-twice
// A wrong fix for exercise 1 (CI checks that it FAILS with this diagnosis): one `Mutex` around the
// dictionary, but `store` asks `numberOfItems` while it holds the lock, and `numberOfItems` takes
// it again. The thread would wait for itself forever; `Mutex` notices and traps ("Recursive call
// to lock") at the very first store. (A lock that does not know its owner, such as a semaphore,
// hangs instead: Hangs/LockTakenTwice.swift.)
import Foundation
import Synchronization

final class Storage: Sendable {
    private let contents = Mutex<[String: Data]>([:])
    private let largest = Mutex(0)

    init() {}

    func store(_ data: Data, forIdentifier id: String) {
        contents.withLock { contents in
            contents[id] = data
            let count = numberOfItems
            largest.withLock { $0 = max($0, count) }
        }
    }

    func data(forIdentifier id: String) -> Data? {
        contents.withLock { $0[id] }
    }

    var numberOfItems: Int {
        contents.withLock { $0.count }
    }
}

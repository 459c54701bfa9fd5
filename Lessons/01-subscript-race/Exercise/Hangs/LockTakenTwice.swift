// A hang (CI checks that it FAILS within the time limit): a lock taken twice. `store` takes the
// lock, then asks `numberOfItems`, which takes it again: a semaphore used as a lock does not know
// its owner, so the second `wait` waits for the first, forever. The checker kills the program after
// its time limit and names this as one of the likely causes.
import Foundation

final class Storage: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var contents: [String: Data] = [:]
    private(set) var largest = 0

    init() {}

    func store(_ data: Data, forIdentifier id: String) {
        lock.wait()
        defer { lock.signal() }
        contents[id] = data
        largest = max(largest, numberOfItems)
    }

    func data(forIdentifier id: String) -> Data? {
        lock.wait()
        defer { lock.signal() }
        return contents[id]
    }

    var numberOfItems: Int {
        lock.wait()
        defer { lock.signal() }
        return contents.count
    }
}

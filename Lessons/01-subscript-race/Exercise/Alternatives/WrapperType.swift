// Another fix for exercise 1 that passes (CI checks that it PASSES): Storage delegates every access
// to a dictionary type of its own whose accesses hold an NSLock. That type's stored dictionary has
// the same name as Storage's property: it is not Storage's, and must not be read as a getter
// reading it without a lock.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let items = LockedDictionary()

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        items[id] = data
    }

    func data(forIdentifier id: String) -> Data? {
        items[id]
    }

    var numberOfItems: Int {
        items.count
    }
}

/// A dictionary whose every access holds `lock`: a subscript set is one critical section.
private final class LockedDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String: Data] = [:]

    subscript(key: String) -> Data? {
        get { lock.withLock { items[key] } }
        set { lock.withLock { items[key] = newValue } }
    }

    var count: Int {
        lock.withLock { items.count }
    }
}

// Exercise 1, reference solution: the read, the change and the write of a store happen in ONE
// barrier work item, so no other store can run between them. Reads stay concurrent.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let queue = DispatchQueue(label: "exercise.storage", attributes: .concurrent)
    /// Only touched inside `queue` work items.
    private var contents: [String: Data] = [:]

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        queue.async(flags: .barrier) {
            self.contents[id] = data
        }
    }

    func data(forIdentifier id: String) -> Data? {
        queue.sync { contents[id] }
    }

    /// Waits for every barrier enqueued before it, so it counts every store that returned.
    var numberOfItems: Int {
        queue.sync { contents.count }
    }
}

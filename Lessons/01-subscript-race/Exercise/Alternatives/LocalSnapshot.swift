// Another fix for exercise 1 that passes (CI checks that it PASSES): a serial queue, and getters
// that read a snapshot a helper takes on it into a local named like the stored dictionary: the
// local is not the dictionary, and must not be read as a read without the queue.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let isolation = DispatchQueue(label: "storage.isolation")
    private var entries: [String: Data] = [:]

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        isolation.sync { entries[id] = data }
    }

    func data(forIdentifier id: String) -> Data? {
        let entries = snapshot()
        return entries[id]
    }

    var numberOfItems: Int {
        let entries = snapshot()
        return entries.count
    }

    private func snapshot() -> [String: Data] {
        isolation.sync { self.entries }
    }
}

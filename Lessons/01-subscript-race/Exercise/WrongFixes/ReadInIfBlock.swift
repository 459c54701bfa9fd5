// expect-diagnosis: unsynced-read
// A wrong fix for exercise 1 (CI checks that it FAILS, read from the code): the getters read the
// dictionary with no lock, in an else block (`self.contents[id]`) and a get block (`contents.count`).
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
        if id.isEmpty {
            return nil
        } else {
            return self.contents[id]
        }
    }

    var numberOfItems: Int {
        get { contents.count }
    }
}

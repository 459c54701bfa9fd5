// Another fix for exercise 1 that passes (CI checks that it PASSES): the dictionary inside a
// `Synchronization.Mutex`, each store and read one `withLock` (iOS 18 / macOS 15 and later). Under
// `TSAN=1` on Linux, TSan cannot see the Mutex's lock; the check says so instead of failing it.
import Foundation
import RaceLab
import Synchronization

final class Storage: Sendable {
    private let contents = Mutex<[String: Data]>([:])

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        contents.withLock { $0[id] = data }
    }

    func data(forIdentifier id: String) -> Data? {
        contents.withLock { $0[id] }
    }

    var numberOfItems: Int {
        contents.withLock { $0.count }
    }
}

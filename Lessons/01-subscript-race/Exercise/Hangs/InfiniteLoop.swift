// A hang (CI checks that it FAILS within the time limit): `store` spins until a flag that nobody
// sets. The checker kills the whole program after its time limit (`--timeout`, EXERCISE_TIMEOUT,
// 120 s by default) and says so, instead of waiting forever.
import Foundation

final class Storage: @unchecked Sendable {
    private var contents: [String: Data] = [:]
    private var ready = false

    init() {}

    func store(_ data: Data, forIdentifier id: String) {
        while !ready { usleep(100) }  // a call in the loop, so that the optimizer keeps the loop
        contents[id] = data
    }

    func data(forIdentifier id: String) -> Data? { contents[id] }

    var numberOfItems: Int { contents.count }
}

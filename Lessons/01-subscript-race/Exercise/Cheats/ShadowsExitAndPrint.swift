// A cheat (CI checks that it FAILS): the buggy starter, plus top-level `exit` and `print` that
// shadow the standard ones in this module, so that a harness calling `exit(1)` would exit with 0
// and print nothing. The checker's verdict code lives in a module of its own, where these names
// still mean the standard functions, and the bug is still there.
import Foundation
import RaceLab

func exit(_ status: Int32) -> Never {
    Foundation.exit(0)
}

func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {}

final class Storage: @unchecked Sendable {
    private let queue = DispatchQueue(label: "exercise.storage", attributes: .concurrent)
    private var _contents: [String: Data] = [:]

    private var contents: [String: Data] {
        get {
            queue.sync { _contents }
        }
        set {
            Race.window("set contents")
            queue.async(flags: .barrier) { self._contents = newValue }
        }
    }

    init() {}

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    func data(forIdentifier id: String) -> Data? {
        contents[id]
    }

    var numberOfItems: Int {
        contents.count
    }
}

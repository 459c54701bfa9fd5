// Another fix for exercise 1 that passes (CI checks that it PASSES): every access goes through two
// helpers, `read` (`queue.sync`) and `write` (a barrier block), so the getters take the queue inside
// a closure the checker cannot see into. It must not be read as a getter that takes no queue.
import Foundation
import RaceLab

final class Storage: @unchecked Sendable {
    private let queue = DispatchQueue(label: "exercise.storage", attributes: .concurrent)
    private var contents: [String: Data] = [:]

    init() {}

    private func read<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
    private func write(_ body: @escaping @Sendable () -> Void) { queue.async(flags: .barrier, execute: body) }

    @inline(never)
    func store(_ data: Data, forIdentifier id: String) {
        write { self.contents[id] = data }
    }

    func data(forIdentifier id: String) -> Data? {
        read { contents[id] }
    }

    var numberOfItems: Int {
        read { contents.count }
    }
}

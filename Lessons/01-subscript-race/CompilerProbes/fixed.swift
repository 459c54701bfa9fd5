// Compiler probe · lesson 1 · fixed
// The fix as the article writes it: the read and the write of a store in one barrier work item.
// Correct, and still rejected by Swift 6: the compiler cannot see that the queue guards
// `contents`, so it refuses to let concurrent code share the class. Correct code that the
// compiler cannot check needs `@unchecked Sendable`, and with it the compiler checks nothing.
import Foundation

final class FixedStorage {
    private let queue = DispatchQueue(label: "fixed-storage", attributes: .concurrent)
    private var contents: [String: Data] = [:]

    func store(_ data: Data, forIdentifier id: String) {
        queue.async(flags: .barrier) {
            self.contents[id] = data
        }
    }

    var numberOfItems: Int {
        queue.sync { contents.count }
    }
}

func storeConcurrently() {
    let storage = FixedStorage()
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        storage.store(Data(), forIdentifier: "item-\(index)")
    }
}

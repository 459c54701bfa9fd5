// Compiler probe · lesson 1 · buggy
// The article's Storage as written before Swift 6: a class whose concurrent queue guards a
// dictionary through a computed property, with no Sendable annotation. Stored from many threads.
//
// Swift 6 rejects it, but not because of the lost update: it cannot see that the queue guards the
// dictionary, so any class with mutable state captured by concurrent code is refused. The fix
// (fixed.swift) is refused for the same reason; once a developer writes `@unchecked Sendable` to
// silence it (as the lesson's Storage does), the compiler accepts buggy and fixed alike.
import Foundation

final class Storage {
    private let queue = DispatchQueue(label: "storage", attributes: .concurrent)
    private var _contents: [String: Data] = [:]

    private var contents: [String: Data] {
        get { queue.sync { _contents } }
        set { queue.async(flags: .barrier) { self._contents = newValue } }
    }

    func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }
}

func storeConcurrently() {
    let storage = Storage()
    DispatchQueue.concurrentPerform(iterations: 100) { index in
        storage.store(Data(), forIdentifier: "item-\(index)")
    }
}

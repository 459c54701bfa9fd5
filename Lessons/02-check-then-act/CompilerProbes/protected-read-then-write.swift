// Compiler probe · lesson 2 · protected-read-then-write
// The article's Protected<Resource> (a reader-writer lock made of a concurrent queue), as written
// before Swift 6, and a counter incremented by `write(read() + 1)`. Rejected by Swift 6, but for
// the class, not for the read-then-write: the fix (protected-mutate.swift) is rejected with the
// same message, and with `@unchecked Sendable` on Protected both are accepted.
import Foundation

final class Protected<Resource> {
    private let lock = ReadWriteLock()
    private var resource: Resource

    init(resource: Resource) { self.resource = resource }

    func read() -> Resource { lock.read { resource } }
    func write(_ value: Resource) { lock.write { self.resource = value } }
}

func countConcurrently() {
    let counter = Protected(resource: 0)
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        let value = counter.read()
        counter.write(value + 1)
    }
}

// Compiler probe · lesson 2 · protected-mutate
// The fix: `mutate { $0 + 1 }` reads and writes in one barrier item. Correct, and rejected by
// Swift 6 with the same error as the buggy read-then-write: the compiler judges the class, not
// how its methods are combined.
import Foundation

final class Protected<Resource> {
    private let lock = ReadWriteLock()
    private var resource: Resource

    init(resource: Resource) { self.resource = resource }

    func read() -> Resource { lock.read { resource } }
    func mutate(_ transform: @escaping (Resource) -> Resource) {
        lock.write { self.resource = transform(self.resource) }
    }
}

func countConcurrently() {
    let counter = Protected(resource: 0)
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        counter.mutate { $0 + 1 }
    }
}

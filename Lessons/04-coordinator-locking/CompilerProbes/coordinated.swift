// Compiler probe · lesson 4 · coordinated
// The article's hand-made FileCoordinator: a map from URL to a concurrent queue, reads with sync,
// writes with sync(flags: .barrier), one shared instance. Correct between threads; rejected by
// Swift 6, which cannot see that the lock guards the map: the shared instance of a class with
// mutable state is not concurrency-safe in its eyes.
import Foundation

final class FileCoordinator {
    static let shared = FileCoordinator()
    private let lock = NSLock()
    private var queues: [URL: DispatchQueue] = [:]

    private func queue(for url: URL) -> DispatchQueue {
        lock.lock()
        defer { lock.unlock() }
        if let queue = queues[url] { return queue }
        let queue = DispatchQueue(label: url.path, attributes: .concurrent)
        queues[url] = queue
        return queue
    }

    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        try queue(for: url).sync(flags: .barrier) { try body(url) }
    }
}

func incrementConcurrently(file: URL) {
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        try? FileCoordinator.shared.coordinateWriting(at: file) { url in
            let value = (try? JSONDecoder().decode(Int.self, from: Data(contentsOf: url))) ?? 0
            try JSONEncoder().encode(value + 1).write(to: url, options: .atomic)
        }
    }
}

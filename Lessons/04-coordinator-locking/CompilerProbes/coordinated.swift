// Compiler probe · lesson 4 · coordinated
// The article's hand-made FileCoordinator as its listing has it: a static map from URL to a
// concurrent queue, guarded by a static serial queue; reads with sync, writes with
// sync(flags: .barrier). Every FileCoordinator() shares the map, so storages that each make their
// own coordinator still exclude each other. Correct between threads; rejected by Swift 6, which
// cannot see that the serial queue guards the map: a `static var` is global mutable state.
import Foundation

final class FileCoordinator {
    private static var queues: [URL: DispatchQueue] = [:]
    private static let queueAccessQueue = DispatchQueue(label: "queueAccessQueue")

    private func queue(for url: URL) -> DispatchQueue {
        FileCoordinator.queueAccessQueue.sync { () -> DispatchQueue in
            if let queue = FileCoordinator.queues[url] { return queue }
            let queue = DispatchQueue(label: "queue-for-\(url)", attributes: .concurrent)
            FileCoordinator.queues[url] = queue
            return queue
        }
    }

    func coordinateReading<T>(at url: URL, _ block: (URL) throws -> T) rethrows -> T {
        try queue(for: url).sync { try block(url) }
    }

    func coordinateWriting(at url: URL, _ block: (URL) throws -> Void) rethrows {
        try queue(for: url).sync(flags: .barrier) { try block(url) }
    }
}

func incrementConcurrently(file: URL) {
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        // A coordinator per access, as storages that each make their own.
        try? FileCoordinator().coordinateWriting(at: file) { url in
            let value = (try? JSONDecoder().decode(Int.self, from: Data(contentsOf: url))) ?? 0
            try JSONEncoder().encode(value + 1).write(to: url, options: .atomic)
        }
    }
}

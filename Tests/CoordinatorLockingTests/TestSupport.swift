import Foundation
import RaceLab

@testable import CoordinatorLocking

/// A folder of the test's own under the process's scratch folder, removed by `remove()`.
struct TestFolder {
    let url: URL

    init() throws {
        url = try ScratchSpace.makeFolder(label: "coordinator-locking-test")
    }

    /// The counter file the storages of a test share.
    var counter: URL { url.appendingPathComponent("counter.json") }

    func remove() {
        ScratchSpace.remove(url)
    }
}

/// Increments the counter at `url` through a new storage with `coordinator`.
func increment(_ url: URL, through coordinator: any FileAccessCoordinator) throws {
    try ObjectStorage<Counter>(url: url, coordinator: coordinator).mutatingObject(defaultValue: Counter()) {
        $0.value += 1
    }
}

/// The counter's value at `url` (0 when there is no file).
func counterValue(_ url: URL) throws -> Int {
    try ObjectStorage<Counter>(url: url).fetchObject()?.value ?? 0
}

/// Threads started one by one and waited for together; collects what they throw.
final class ThreadGroup: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var errors: [String] = []

    func start(_ body: @escaping @Sendable () throws -> Void) {
        group.enter()
        Thread {
            do {
                try body()
            } catch {
                self.lock.withLock { self.errors.append("\(error)") }
            }
            self.group.leave()
        }.start()
    }

    /// Waits for every thread started so far; returns their errors.
    func wait() -> [String] {
        group.wait()
        return lock.withLock { errors }
    }
}

/// Events appended from several threads, in the order they happened.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func append(_ event: String) {
        lock.withLock { events.append(event) }
    }

    var entries: [String] { lock.withLock { events } }
}

// Exercise 4, reference solution: one lock per file URL, shared by every instance (a process-wide
// map), held around the WHOLE read-modify-write. Two instances of one file exclude each other; two
// files do not wait for each other. (Lesson 4's `FileCoordinator` does the same with a concurrent
// queue per URL and a barrier, and also drops unused entries; for a counter, a lock is enough.)
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    /// One lock per file, for the whole process. `mapLock` guards the map, not the files.
    private static let mapLock = NSLock()
    nonisolated(unsafe) private static var locks: [URL: NSLock] = [:]

    private static func lock(for url: URL) -> NSLock {
        let key = url.standardizedFileURL
        return mapLock.withLock {
            if let lock = locks[key] { return lock }
            let lock = NSLock()
            locks[key] = lock
            return lock
        }
    }

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        try Self.lock(for: url).withLock {
            let current = try read()
            Race.window("write counter")
            try write(current + 1)
        }
    }

    func value() throws -> Int {
        try Self.lock(for: url).withLock { try read() }
    }

    private func read() throws -> Int {
        guard FileManager.default.fileExists(atPath: url.path) else { return 0 }
        let text = try String(contentsOf: url, encoding: .utf8)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    private func write(_ value: Int) throws {
        try Data("\(value)\n".utf8).write(to: url, options: .atomic)
    }
}

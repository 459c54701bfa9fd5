// Exercise 4, another fix that passes, for one process: a lock per counter file in a `static` map,
// guarded by a lock of its own (`registryLock`) taken with `lock()` and released by hand. The
// file's lock found in the map is returned early, after an `unlock()` inside the `if`: that release
// runs only on the path that returns, so every read and change of the map holds `registryLock`.
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var fileLocks: [String: NSLock] = [:]

    /// The one lock every FileCounter of this file shares.
    private static func fileLock(for url: URL) -> NSLock {
        let key = url.standardizedFileURL.path
        registryLock.lock()
        if let existing = fileLocks[key] {
            registryLock.unlock()
            return existing
        }
        let created = NSLock()
        fileLocks[key] = created
        registryLock.unlock()
        return created
    }

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        let lock = Self.fileLock(for: url)
        lock.lock()
        defer { lock.unlock() }
        let current = try read()
        Race.window("write counter")
        try write(current + 1)
    }

    func value() throws -> Int {
        try read()
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

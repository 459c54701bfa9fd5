// Exercise 4, another fix that passes, for one process: a lock per counter file in a `static` map,
// used only inside `synchronized { }`, a helper of the file that takes the map's lock (`lock()`,
// `defer { unlock() }`) and runs its closure under it: two increments that look up a new file at
// once get one lock between them.
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var fileLocks: [String: NSLock] = [:]

    /// Runs body while holding the registry lock.
    private static func synchronized<T>(_ body: () throws -> T) rethrows -> T {
        registryLock.lock()
        defer { registryLock.unlock() }
        return try body()
    }

    private static func fileLock(for url: URL) -> NSLock {
        synchronized {
            let key = url.standardizedFileURL.path
            if let existing = fileLocks[key] { return existing }
            let created = NSLock()
            fileLocks[key] = created
            return created
        }
    }

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        try Self.fileLock(for: url).withLock {
            let current = try read()
            Race.window("write counter")
            try write(current + 1)
        }
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

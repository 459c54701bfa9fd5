// Exercise 4, another fix for one process: a lock per counter file, which every instance shares.
// A `static` map from the file's path to its lock, guarded by a lock of its own (`mapLock`): two
// increments that look up a new file at once get one lock between them. Another process has its
// own map, so this excludes nothing across processes (the reference solution's lock does).
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    /// Every `FileCounter` of one file takes the same lock; `mapLock` guards the map itself.
    private static let mapLock = NSLock()
    nonisolated(unsafe) private static var locks: [String: NSLock] = [:]

    private static func lock(for url: URL) -> NSLock {
        mapLock.withLock {
            let path = url.standardizedFileURL.path
            if let lock = locks[path] { return lock }
            let lock = NSLock()
            locks[path] = lock
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

// expect-diagnosis: lost-writes
// A common wrong fix for exercise 4 (CI checks that it FAILS): the right lock (one per file URL,
// shared by every instance), taken twice: once around the read, once around the write. Each file
// access is now exclusive; the read-modify-write is still two locked steps with a gap between them,
// so two increments can both read 41 and both write 42.
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

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
        let lock = Self.lock(for: url)
        let current = try lock.withLock { try read() }
        Race.window("write counter")
        try lock.withLock { try write(current + 1) }
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

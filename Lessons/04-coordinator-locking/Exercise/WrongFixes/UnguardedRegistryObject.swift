// expect-diagnosis: unguarded-map
// A wrong fix for exercise 4 (CI checks that it FAILS, read from the code): a lock per file in a
// map moved into an object of its own (`LockRegistry`), whose one instance a `static let` holds, so
// every FileCounter shares it, with nothing guarding the map. The `let` only shares the object:
// its `var` is changed from every thread as an unguarded `static var` is. Two increments of a new
// file can both find no lock and each store one, or change the dictionary at once and corrupt it;
// the concurrent run passes or crashes by luck, so the check reads it from the code.
import Foundation
import RaceLab

/// Hands out one lock per counter file.
private final class LockRegistry: @unchecked Sendable {
    private var locks: [String: NSLock] = [:]

    func lock(for url: URL) -> NSLock {
        let key = url.standardizedFileURL.path
        if let existing = locks[key] { return existing }
        let created = NSLock()
        locks[key] = created
        return created
    }
}

final class FileCounter: @unchecked Sendable {
    let url: URL
    private static let registry = LockRegistry()

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        try Self.registry.lock(for: url).withLock {
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

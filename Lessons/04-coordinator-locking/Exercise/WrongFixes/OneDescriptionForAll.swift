// expect-diagnosis: lost-writes
// A common wrong fix for exercise 4 (CI checks that it FAILS): the right kind of lock (owned by an
// open file description), but one description for everybody: a single lock file opened once and
// shared by every instance. Every increment then asks for the lock as the same owner, which already
// holds it, and is granted it at once: the lesson's same-owner bug again.
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    /// One open lock file per counter file, for the whole process. `mapLock` guards the map.
    private static let mapLock = NSLock()
    nonisolated(unsafe) private static var lockFiles: [String: RaceLockFile] = [:]

    private static func lockFile(for url: URL) throws -> RaceLockFile {
        let path = url.standardizedFileURL.path + ".lock"
        return try mapLock.withLock {
            if let file = lockFiles[path] { return file }
            let file = try RaceLockFile(path: path)
            lockFiles[path] = file
            return file
        }
    }

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        let lockFile = try Self.lockFile(for: url)
        try lockFile.lockDescription()
        defer { try? lockFile.unlockDescription() }
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

// Exercise 4, reference solution: the same lock file, locked with the lock whose owner is the open
// file description (`lockDescription`: `F_OFD_SETLKW` on Linux, `flock` on Darwin) instead of the
// process (`lockRecord`: `fcntl(F_SETLKW)`). Each increment opens the lock file itself, so each holds
// a description of its own: two increments exclude each other, in one process or in two, and two
// files do not wait for each other. Within one process only, a lock per file URL shared by every
// instance works too (lesson 4's `FileCoordinator` is a queue per URL with a barrier).
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        // The lock file sits next to the counter: the counter file itself is replaced by each write.
        let lockFile = try RaceLockFile(path: url.path + ".lock")
        defer { lockFile.close() }
        // Owned by this open(): another increment's open() waits, whichever thread or process it is.
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

// Exercise 4: make `FileCounter` keep every increment.
//
// `FileCounter` keeps a number in a file: `increment()` reads the file, adds one and writes the
// file back (atomically: a temporary file, then a rename, so a read never sees half a file). Code
// makes a new `FileCounter` wherever it needs one, so many instances increment one file at once.
// Each increment takes an exclusive lock first: a POSIX record lock (`fcntl(F_SETLKW)`) on the
// lock file next to the counter, held around the whole read-modify-write. And still increments
// vanish. Fix `FileCounter` so that concurrent increments of one file never lose one. Ask first:
// whom does this lock exclude?
//
// Rules:
// - Keep the API: `init(url:)`, `increment()`, `value()`.
// - The count lives in the file at `url` (a decimal number); a missing file counts as 0.
// - Two increments of one file, from any two threads of the process, must never be inside the
//   read-modify-write at the same time.
// - The checker makes a NEW `FileCounter(url:)` for every single increment, then shares one
//   `FileCounter` among all its threads: whatever protects the file must work both ways.
// - Stay synchronous (no `async` methods).
//
// `RaceLockFile` is RaceLab's handle on a lock file (one `open()` of it) with the kernel's file
// locks, which the schedule explorer also sees. `Race.window("...")` is a RaceLab mark: under the
// checker a thread may pause there for a moment, the way a busy machine would pause it. A mark
// never creates a bug, it only widens a window that is already there. Deleting it fixes nothing.
//
// Check your fix:   make exercise-4        (PASS, or FAIL with how many increments were lost)
// Hints, one at a time: Lessons/04-coordinator-locking/Exercise/hints.md
// Start over:       make exercise-4-reset
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        // The lock file sits next to the counter: each write replaces the counter file itself.
        let lockFile = try RaceLockFile(path: url.path + ".lock")
        defer { lockFile.close() }
        try lockFile.lockRecord()
        defer { try? lockFile.unlockRecord() }
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

// expect-diagnosis: lost-writes
// A common wrong fix for exercise 4 (CI checks that it FAILS): the record lock replaced by a lock
// stored in the instance. The checker makes a new `FileCounter` per increment, so every increment
// takes a lock no other increment takes: the opposite mistake to the record lock's (one owner for
// every thread; here one owner per increment), with the same result.
import Foundation
import RaceLab

final class FileCounter: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()

    init(url: URL) {
        self.url = url
    }

    @inline(never)
    func increment() throws {
        try lock.withLock {
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

import Foundation
import Testing

/// `Scripts/tsan-unseen-mutex`, which `make exercise-N TSAN=1` asks before it counts race reports,
/// on real ThreadSanitizer reports of exercise 1 (`TSanReports/`): on Linux TSan cannot see
/// `Synchronization.Mutex`'s lock, so a report whose two accesses both ran inside `withLock` bodies
/// of a Mutex the file declares is not counted; every other report still is.
@Suite("ThreadSanitizer reports about Mutex bodies are told apart from data races")
struct TSanUnseenMutexTests {
    /// The participant's file as the reports' frames name it.
    static let sourceInLog = "/scratch/package/Sources/exercise-1/Storage.swift"

    /// `COUNTED UNSEEN FIRST` for a report and a source file.
    static func classify(_ log: String, source: String) async throws -> [Int] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("TSanReports")
        let sourcePath = source.hasPrefix("/") ? source : folder.appendingPathComponent(source).path
        let (status, text) = try await Executable.capture(
            CrashDiagnosisTests.root.appendingPathComponent("Scripts/tsan-unseen-mutex"),
            [folder.appendingPathComponent(log).path, sourceInLog, sourcePath],
            stderr: .inherited
        )
        #expect(status == 0, "\(text)")
        return text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
    }

    @Test("a correct Mutex fix: its one report is about two withLock bodies, and is not counted")
    func mutexFix() async throws {
        let result = try await Self.classify("mutex-fix.log", source: "mutex-fix.swift.txt")
        #if os(Linux)
        #expect(result == [0, 1, 0])
        #else
        #expect(result == [1, 0, 1])
        #endif
    }

    @Test("a Mutex fix with a counter outside the lock: the counter's reports count, the first shown is one of them")
    func mutexAndCounter() async throws {
        let result = try await Self.classify("mutex-and-counter.log", source: "mutex-and-counter.swift.txt")
        #if os(Linux)
        #expect(result == [4, 1, 2])
        #else
        #expect(result == [5, 0, 1])
        #endif
    }

    @Test("a Mutex behind helpers: a closure the helper runs inside withLock is inside it, though written elsewhere")
    func mutexHelper() async throws {
        let result = try await Self.classify("mutex-helper.log", source: "mutex-helper.swift.txt")
        #if os(Linux)
        #expect(result == [0, 3, 0])
        #else
        #expect(result == [3, 0, 1])
        #endif
    }

    @Test("a file that declares no Mutex: every report counts")
    func noMutex() async throws {
        let result = try await Self.classify("mutex-and-counter.log", source: "/dev/null")
        #expect(result == [5, 0, 1])
    }
}

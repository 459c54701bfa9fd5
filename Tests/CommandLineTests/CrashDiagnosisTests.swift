import Foundation
import Testing

/// `Scripts/diagnose-crash`, which `make exercise-N` runs on a crashed check, on real crash
/// reports of the Swift runtime (`CrashLogs/`): a crash is explained by what crashed, and only a
/// crash inside a collection, the allocator or reference counting under concurrent calls is blamed
/// on the race.
@Suite("a crashed exercise check is explained by what crashed")
struct CrashDiagnosisTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func diagnose(_ log: String, status: Int, stage: String) async throws -> (status: Int32, text: String) {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "CrashLogs/\(log)"
        )
        return try await Executable.capture(
            root.appendingPathComponent("Scripts/diagnose-crash"),
            [path.path, String(status)] + (stage.isEmpty ? [] : [stage]),
            stderr: .inherited
        )
    }

    @Test(
        "each crash report gets its diagnosis",
        arguments: [
            // queue.sync(flags: .barrier) from a block already on the queue: libdispatch traps.
            ("sync-onto-own-queue.log", "", "diagnosis: sync-onto-own-queue", "__DISPATCH_WAIT_FOR_QUEUE__"),
            // Mutex.withLock inside withLock on one thread: "Recursive call to lock".
            ("lock-taken-twice.log", "", "diagnosis: lock-taken-twice", "Recursive call to lock Mutex"),
            // An index out of range while many threads called the code: the race.
            ("index-out-of-range.log", "concurrent", "diagnosis: race-crash", "Array.subscript.getter"),
            // The same crash in the single-threaded checks is no evidence of a race.
            ("index-out-of-range.log", "", "diagnosis: crash", "in the single-threaded checks"),
            // An absurd allocation, its size read from a dictionary's header another thread was
            // rewriting (the runtime's message as exercise 1's getter on another queue printed it).
            ("failed-to-allocate.log", "concurrent", "diagnosis: race-crash", "failed to allocate"),
            ("failed-to-allocate.log", "", "diagnosis: crash", "in the single-threaded checks"),
        ]
    )
    func diagnosis(log: String, stage: String, kind: String, evidence: String) async throws {
        let result = try await Self.diagnose(log, status: 132, stage: stage)
        #expect(result.status == 0)
        #expect(result.text.split(separator: "\n").first.map(String.init) == kind)
        #expect(result.text.contains(evidence))
        #expect(result.text.contains("SIGILL"))
        let wide = result.text.split(separator: "\n").filter { $0.count > 94 }
        #expect(wide.isEmpty, "lines too wide for the checker's indented output: \(wide)")
    }

    /// Stores into one variable (a struct of a `String` and an `Array`) from blocks of a concurrent
    /// queue with no barrier, beside copies of it: memory freed or reference-counted under another
    /// thread, a segmentation fault in the runtime's reference counting, not in a collection.
    @Test(
        "a crash in reference counting while many threads ran is the race, in words that fit it",
        arguments: [
            ("dealloc-under-a-thread.log", "swift::HeapObjectSideTableEntry::decrementUnownedShouldFree"),
            ("retain-of-freed-object.log", "swift::RefCounts<"),
            ("release-of-freed-object.log", "bool swift::RefCounts<"),
        ]
    )
    func memoryCorruptedByTheRace(log: String, frame: String) async throws {
        let result = try await Self.diagnose(log, status: 139, stage: "concurrent")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "diagnosis: race-crash")
        let paragraph = lines.joined(separator: " ")
        #expect(paragraph.contains("SIGSEGV, a bad memory access in the memory allocator or reference counting"))
        #expect(!paragraph.contains("inside a collection"))
        #expect(result.text.contains("crashed in: " + frame))
        #expect(lines.filter { $0.count > 94 }.isEmpty, "lines too wide for the checker's indented output")
        // In the single-threaded checks, the same crash is no evidence of a race.
        let alone = try await Self.diagnose(log, status: 139, stage: "")
        #expect(alone.text.hasPrefix("diagnosis: crash\n"))
    }

    /// The Swift runtime's message about an object freed while still referenced is one line of 244
    /// columns: quoted whole, wrapped under its label, never cut to its first words.
    @Test("the runtime's message is quoted whole, wrapped to the checker's width")
    func longRuntimeMessageIsWrapped() async throws {
        let result = try await Self.diagnose("dealloc-with-retain-count.log", status: 134, stage: "concurrent")
        let lines = result.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "diagnosis: race-crash")
        #expect(lines.filter { $0.count > 94 }.isEmpty, "lines too wide for the checker's indented output: \(lines)")
        let start = try #require(lines.firstIndex { $0.hasPrefix("  runtime: ") }, "\(lines)")
        let quoted = lines[start...].prefix { $0 == lines[start] || $0.hasPrefix("           ") }
        #expect(quoted.count > 1, "\(lines)")
        let message = quoted.map { $0.dropFirst(11) }.joined(separator: " ")
        let log = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("CrashLogs/dealloc-with-retain-count.log"),
            encoding: .utf8
        )
        let original = try #require(log.split(separator: "\n").first.map(String.init))
        #expect(message == original, "\(lines)")
    }

    /// A deadlock stops the check where it happened: before the stress run, nothing says whether the
    /// race is fixed (a barrier around `contents[id] = data` fixes it, a getter that syncs deadlocks).
    @Test(
        "a deadlock says how far the check got, never that the race is still there",
        arguments: [
            ("sync-onto-own-queue.log", "", "in its single-threaded checks: it has not yet tested for the race"),
            ("sync-onto-own-queue.log", "concurrent", "inside its run from many threads"),
            ("lock-taken-twice.log", "", "in its single-threaded checks: it has not yet tested for the race"),
            ("lock-taken-twice.log", "concurrent", "inside its run from many threads"),
        ]
    )
    func deadlockSaysHowFarTheCheckGot(log: String, stage: String, evidence: String) async throws {
        let result = try await Self.diagnose(log, status: 132, stage: stage)
        let paragraph = result.text.split(separator: "\n").joined(separator: " ")
        #expect(paragraph.contains(evidence))
        #expect(!paragraph.contains("still there"))
    }
}

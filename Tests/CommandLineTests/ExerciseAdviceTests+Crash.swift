import Foundation
import Testing

/// Under a crash's diagnosis, the checker names the line of the file under check where the crashed
/// thread was, when the runtime's backtrace reaches that file, and points to the runtime's report,
/// never calling it full. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    static let crashSite = "      Crashed at "

    @Test("a lock taken twice: the crash names the line of the file under check", .timeLimit(.minutes(20)))
    func lockTakenTwiceNamesTheLine() async throws {
        let path = "Lessons/01-subscript-race/Exercise/WrongFixes/MutexTakenTwice.swift"
        let lines = try await Self.check(exercise: 1, .file(path), diagnosis: "lock-taken-twice")
        let site = try #require(lines.first { $0.hasPrefix(Self.crashSite) }, "\(lines)")
        let match = try #require(site.dropFirst(6).wholeMatch(of: /Crashed at (.+):([0-9]+)\./), "\(site)")
        #expect(match.1 == path)
        // The innermost frame in the file: the second lock, in `numberOfItems` or where `store` asks it.
        let source = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let number = try #require(Int(match.2))
        try #require(number >= 1 && number <= source.count, "\(site)")
        let text = source[number - 1]
        #expect(text.contains("$0.count") || text.contains("numberOfItems"), "line \(number): \(text)")
        #expect(lines.contains { $0.hasPrefix("      The runtime's report: ") }, "\(lines)")
        // The runtime's message once, in the explanation (`runtime: …`), not again as the program's
        // raw stderr line; every line fits a projected terminal (but CI's `--expect` verdict).
        #expect(lines.filter { $0.contains("Recursive call to lock Mutex") }.count == 1, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 100 || $0.hasPrefix("as expected: ") }, "\(lines)")
    }

    @Test(
        "a sync onto its own queue: libdispatch's trap names no line, and the report is not called full",
        .timeLimit(.minutes(20))
    )
    func syncOntoOwnQueueNamesNoLine() async throws {
        let lines = try await Self.check(
            exercise: 1,
            .patch("Lessons/01-subscript-race/Exercise/WrongFixes/SyncBarrierOnItsOwnQueue.patch"),
            diagnosis: "sync-onto-own-queue"
        )
        // The unwinder stops in the Dispatch library (with this toolchain): a line is named exactly
        // when the report has a frame in the file under check.
        let report = try #require(lines.first { $0.hasPrefix("      The runtime's report: ") }, "\(lines)")
        let log = try String(contentsOfFile: String(report.dropFirst(28)), encoding: .utf8)
        #expect(lines.contains { $0.hasPrefix(Self.crashSite) } == log.contains("/Storage.swift:"), "\(log)")
        #expect(!lines.contains { $0.contains("full report") }, "\(lines)")
    }
}

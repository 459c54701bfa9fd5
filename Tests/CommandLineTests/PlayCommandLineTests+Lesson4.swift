import Foundation
import Testing

extension PlayCommandLineTests {
    /// Lesson 4's README tells a participant what to type in `play 4` to lose an update: both reads
    /// before either save. The steps it names, typed, must break the invariant, with both threads
    /// holding the claim and both having read 0 before the first save.
    @Test("lesson 4: the README's keystrokes (both reads before either save) lose an increment")
    func lessonFourReadmeSteps() async throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Lessons/04-coordinator-locking/README.md"),
            encoding: .utf8
        )
        let prose = readme.split(whereSeparator: \.isNewline).joined(separator: " ")
        #expect(prose.contains("Take both reads before either save: `0` three times"), "\(prose)")
        // The same steps on one line: `readmeRecipe` plays them so.
        #expect(prose.contains("then `0` and `1`: both save 1, and the file ends at 1 (one line, `0 0 0 1"), "\(prose)")
        let output = try await Self.play(["4"], input: "0\n0\n0\n1\n1\n1\n0\n1\nq\n")
        #expect(output.status == 0, "\(output.stderr)")
        // Before the first save (step 7), both threads are inside the claim with 0 read.
        let beforeSave = try #require(output.stdout.range(of: "step 7   state:"))
        let state = output.stdout[beforeSave.lowerBound...].prefix(300)
        #expect(state.contains("thread 0 holds the claim, read 0 → will write 1"), "\(output.stdout)")
        #expect(state.contains("thread 1 granted it too (same owner), read 0 → will write 1"), "\(output.stdout)")
        #expect(output.stdout.contains("The invariant broke: counter is 1 after 2 increments (8 steps)."))
    }
}

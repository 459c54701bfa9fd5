import Foundation
import Testing

/// Hints for mistakes only the code tells apart: the run sees the same lost keys or points as the
/// starter's. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// Exercise 1: a getter and a setter that each take a lock lose keys as the starter does; the
    /// code tells them apart, and the property made atomic goes to the hint written for it.
    @Test(
        "exercise 1: the property made atomic is sent to the hint on atomic properties, the starter to the first",
        .timeLimit(.minutes(20)),
        arguments: [
            ("Starter/Storage.swift", "lost-writes", 1, false),
            ("WrongFixes/AtomicProperty.patch", "atomic-property", 4, true),
        ]
    )
    func exercise1AtomicProperty(file: String, kind: String, hint: Int, readFromCode: Bool) throws {
        let exercise = "Lessons/01-subscript-race/Exercise/"
        let planted: Planted = file.hasSuffix(".patch") ? .patch(exercise + file) : .file(exercise + file)
        let lines = try Self.check(exercise: 1, planted, diagnosis: kind)
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint \(hint) of 4 in \(exercise)hints.md") == true, "\(lines)")
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("a getter and a setter that each take a lock") == readFromCode, "\(lines)")
    }

    /// Exercise 3: an add that re-checks after its `await` and drops its points loses points as the
    /// starter does; the code tells them apart, and the drop goes to the hint on what does not help.
    @Test(
        "exercise 3: re-checking after the await and dropping is sent to the hint on what does not help",
        .timeLimit(.minutes(20)),
        arguments: [
            ("Starter/Scoreboard.swift", "lost-writes", 1, false),
            ("WrongFixes/RecheckAfterAwait.patch", "recheck-drop", 4, true),
        ]
    )
    func exercise3RecheckAndDrop(file: String, kind: String, hint: Int, readFromCode: Bool) throws {
        let exercise = "Lessons/03-actor-reentrancy/Exercise/"
        let planted: Planted = file.hasSuffix(".patch") ? .patch(exercise + file) : .file(exercise + file)
        let lines = try Self.check(exercise: 3, planted, diagnosis: kind)
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint \(hint) of 4 in \(exercise)hints.md") == true, "\(lines)")
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(text.contains("an add that finds it changed drops its points") == readFromCode, "\(lines)")
    }
}

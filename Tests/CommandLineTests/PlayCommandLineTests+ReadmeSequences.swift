import Foundation
import Testing

extension PlayCommandLineTests {
    /// Lessons 5 and 6 name, beside `make play-N` in their README, the threads to type to break the
    /// buggy variant: typed, they must break its invariant.
    @Test(
        "lessons 5 and 6: the README's play sequence breaks the buggy variant",
        arguments: ["05-persistent-store", "06-async-data-source"]
    )
    func readmePlaySequence(lesson: String) async throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Lessons/\(lesson)/README.md"),
            encoding: .utf8
        )
        let number = String(Int(lesson.prefix(2)) ?? 0)
        let line = try #require(
            readme.firstMatch(of: try Regex("make play-\(number) +# you schedule; ([0-9 ]+) breaks it")),
            "\(readme)"
        )
        let steps = try #require(line.output[1].substring).split(separator: " ")
        let output = try await Self.play([number], input: steps.joined(separator: "\n") + "\nq\nq\n")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("The invariant broke: "), "\(output.stdout)")
        #expect(output.stdout.contains("You broke it."), "\(output.stdout)")
    }
}

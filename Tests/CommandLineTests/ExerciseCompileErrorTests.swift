import Foundation
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A participant's file that does not compile: `Scripts/check-exercise` shows the compiler's errors
/// through `Scripts/wrap-diagnostics`, so that each line fits a projector's 100 columns and each
/// `file:line:col: error:` stays whole for an editor to open.
@Suite("exercise compile errors: wrapped to 100 columns, each location whole")
struct ExerciseCompileErrorTests {
    /// What `check-exercise` passes on from a build of a file that does not compile: a message
    /// longer than a line, its source line with the gutter, and a message that fits.
    static let diagnostics = """
        Lessons/02-check-then-act/Exercise/Once.swift:41:51: error: cannot convert value of type \
        'String' to specified type 'Int' in a declaration whose initializer names a long type
         41 | func brokenOnPurpose() -> Bool { let value: Int = "a string that is not an Int at all, \
        and a message"; return value }
            |                                                   `- error: cannot convert value
        Lessons/02-check-then-act/Exercise/Once.swift:41:91: error: no 'Bool' here

        """

    static func wrap(_ text: String) throws -> [String] {
        let process = Process()
        process.executableURL = repositoryRoot.appendingPathComponent("Scripts/wrap-diagnostics")
        process.arguments = ["100"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    @Test("every line fits 100 columns; locations start their lines whole; no word is lost")
    func wrapsWithinWidth() throws {
        let lines = try Self.wrap(Self.diagnostics)
        #expect(Self.diagnostics.split(separator: "\n").contains { $0.count > 100 })
        #expect(lines.allSatisfy { $0.count <= 100 }, "\(lines)")
        #expect(lines.first?.hasPrefix("Lessons/02-check-then-act/Exercise/Once.swift:41:51: error: ") == true)
        #expect(lines.contains("Lessons/02-check-then-act/Exercise/Once.swift:41:91: error: no 'Bool' here"))
        // Continuations are indented: under a message by four spaces, under a source line by its gutter.
        #expect(lines[1].hasPrefix("    ") && !lines[1].hasPrefix("     "), "\(lines)")
        let source = try #require(lines.firstIndex { $0.hasPrefix(" 41 | ") })
        #expect(lines[source + 1].hasPrefix("    | "), "\(lines)")
        // Wrapping only moves words to new lines.
        let words = { (text: [String]) in text.joined(separator: " ").split(separator: " ").filter { $0 != "|" } }
        #expect(words(lines) == words(Self.diagnostics.split(separator: "\n").map(String.init)))
    }

    @Test("a location wider than a line stays whole, its message on the lines below")
    func longLocationStaysWhole() throws {
        let location = "/" + String(repeating: "deep/", count: 20) + "Once.swift:7:3: error: "
        let lines = try Self.wrap(location + "cannot find 'x' in scope\n")
        #expect(lines == [String(location.dropLast()), "    cannot find 'x' in scope"])
    }
}

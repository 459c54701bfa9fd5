import Foundation
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The exercises' planted wrong fixes, cheats and demos are patches against the starter or the
/// solution (`Scripts/check-exercise N --patch FILE`). A patch that no longer applies is an error of
/// the checker's input, never a verdict: these tests run the script on a scratch tree, where it
/// stops before any build, and check that every patch in the repository still applies.
@Suite("exercise patches: applied to a scratch copy, or one line and exit 2")
struct ExercisePatchTests {
    static let starter = """
        final class Storage {
            func store() {
                first()
                second()
            }
        }

        """

    /// Runs `Scripts/check-exercise 1 --patch <patch>` in a scratch copy of the repository's shape
    /// (the script, and exercise 1 with only its starter), with `patch` as the patch's text.
    static func check(patch: String) async throws -> (status: Int32, lines: [Substring], exercise: [String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-exercise-patch-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let exercise = root.appendingPathComponent("Lessons/01-subscript-race/Exercise")
        let fileManager = FileManager.default
        try fileManager.createDirectory(
            at: exercise.appendingPathComponent("Starter"),
            withIntermediateDirectories: true
        )
        try fileManager.createDirectory(at: root.appendingPathComponent("Scripts"), withIntermediateDirectories: true)
        try fileManager.copyItem(
            at: repositoryRoot.appendingPathComponent("Scripts/check-exercise"),
            to: root.appendingPathComponent("Scripts/check-exercise")
        )
        try Data(starter.utf8).write(to: exercise.appendingPathComponent("Starter/Storage.swift"))
        let patchFile = root.appendingPathComponent("Wrong.patch")
        try Data(patch.utf8).write(to: patchFile)
        let (status, output) = try await Executable.capture(
            root.appendingPathComponent("Scripts/check-exercise"),
            ["1", "--patch", patchFile.path, "--expect", "fail"],
            stderr: .merged
        )
        let left = try fileManager.subpathsOfDirectory(atPath: exercise.path).sorted()
        #expect(
            try String(contentsOf: exercise.appendingPathComponent("Starter/Storage.swift"), encoding: .utf8)
                == starter
        )
        return (status, output.split(separator: "\n"), left)
    }

    @Test("a patch whose lines are not in the file it names: one line, exit 2, nothing written beside it")
    func patchThatDoesNotApply() async throws {
        let result = try await Self.check(
            patch: """
                A wrong fix whose context is not the starter's.
                --- Starter/Storage.swift
                +++ WrongFixes/Wrong.swift
                @@ -2,4 +2,4 @@
                     func store() {
                -        first()
                +        third()
                         fourth()
                     }

                """
        )
        #expect(result.status == 2)
        #expect(result.lines.count == 1, "\(result.lines)")
        #expect(
            result.lines.first?.contains("does not apply to Lessons/01-subscript-race/Exercise/Starter/Storage.swift")
                == true
        )
        // No working copy made from the starter, no file patched in place.
        #expect(result.exercise == ["Starter", "Starter/Storage.swift"])
    }

    @Test(
        "a patch must name the exercise's own starter or solution",
        arguments: ["../Starter/Storage.swift", "Check/main.swift", "/etc/hosts", "Starter/Other.swift", ""]
    )
    func patchNamesAnotherFile(original: String) async throws {
        let header = original.isEmpty ? "" : "--- \(original)\n+++ WrongFixes/Wrong.swift\n"
        let result = try await Self.check(
            patch: header + """
                @@ -3,2 +3,2 @@
                -        first()
                +        third()
                         second()

                """
        )
        #expect(result.status == 2)
        #expect(result.lines.count == 1, "\(result.lines)")
        #expect(
            result.lines.first?.contains("its --- line must name Starter/<File>.swift or Solution/<File>.swift") == true
        )
        #expect(result.exercise == ["Starter", "Starter/Storage.swift"])
    }

    /// The same `patch` call as the script's, without the build: a starter or solution edited so
    /// that a wrong fix no longer applies fails here, before `make exercises-check` would.
    @Test("every planted patch applies to the starter or solution it names, and changes it")
    func everyPlantedPatchApplies() async throws {
        let lessons = repositoryRoot.appendingPathComponent("Lessons")
        let patches = try FileManager.default.subpathsOfDirectory(atPath: lessons.path)
            .filter { $0.hasSuffix(".patch") && $0.contains("/Exercise/") }
            .sorted()
        #expect(patches.count >= 8, "\(patches)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "racelab-planted-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for path in patches {
            let patch = lessons.appendingPathComponent(path)
            // Exercise/<Folder>/<Name>.patch: the names in its --- line are relative to Exercise/.
            let exercise = patch.deletingLastPathComponent().deletingLastPathComponent()
            let text = try String(contentsOf: patch, encoding: .utf8)
            let named = text.split(separator: "\n").first { $0.hasPrefix("--- ") }
                .map { String($0.dropFirst(4).prefix { !$0.isWhitespace }) }
            let original = try #require(named, "\(path) names no file")
            #expect(original.hasPrefix("Starter/") || original.hasPrefix("Solution/"), "\(path): \(original)")
            let output = scratch.appendingPathComponent(UUID().uuidString + ".swift")
            let (status, log) = try await Executable.capture(
                URL(fileURLWithPath: "/usr/bin/patch"),
                [
                    "-s", "-t", "-N", "-F", "0", "-o", output.path, "-r", output.path + ".rej",
                    exercise.appendingPathComponent(original).path, patch.path,
                ],
                stderr: .merged
            )
            guard status == 0 else {
                Issue.record("\(path) does not apply to \(original): \(log)")
                continue
            }
            let before = try String(contentsOf: exercise.appendingPathComponent(original), encoding: .utf8)
            #expect(try String(contentsOf: output, encoding: .utf8) != before, "\(path) changes nothing")
        }
    }
}

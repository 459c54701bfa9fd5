import Foundation
import Testing

@testable import RaceLabCommandLine

/// The help text as printed, line for line, against the files in `Golden/`: a change to any
/// option's help shows here for every command that offers it. To accept a deliberate change,
/// regenerate the files with `racelab --help` and `racelab help <command>`, and review the diff.
@Suite("racelab's help, word for word")
struct HelpTextTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func expected(_ file: String) throws -> String {
        try String(contentsOf: golden.appendingPathComponent(file), encoding: .utf8)
    }

    @Test("the tool's help", arguments: [["--help"], ["-h"], ["help"], []])
    func overview(arguments: [String]) async throws {
        let output = try await Executable.racelab.run(arguments)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        #expect(output.stdout == (try Self.expected("help.txt")))
    }

    @Test("each command's help, the same from 'help <command>' and '<command> --help'")
    func commands() async throws {
        for command in CommandDescriptor.visible.map(\.name) {
            let expected = try Self.expected("help-\(command).txt")
            let output = try await Executable.racelab.run("help", command)
            #expect(output.status == 0)
            #expect(output.stdout == expected, "help \(command)")
            guard command != "help" else { continue }
            for flag in ["--help", "-h"] {
                #expect(try await Executable.racelab.run(command, flag).stdout == expected, "\(command) \(flag)")
            }
        }
    }

    @Test("an option shared by several commands reads the same in each command's help")
    func sharedOptionsReadAlike() async throws {
        var texts: [String] = []
        for command in ["run", "power", "matrix"] {
            texts.append(try await Executable.racelab.run("help", command).stdout)
        }
        for line in [
            "  --iterations N       Operations per trial, one per concurrentPerform iteration",
            "  --seed S             Seed for the noise at race windows, decimal or 0x hex",
            "  --trials T           Independent trials per variant (default: the lesson's).",
        ] {
            #expect(texts.filter { $0.contains(line) }.count >= 2, "\(line)")
        }
        #expect(texts.allSatisfy { $0.contains("  -h, --help           Show this help.") })
    }

    /// The numbers in the paragraph of `text` from the line that says "exit status" (any case).
    static func exitStatuses(in text: String) throws -> Set<Int> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.lowercased().contains("exit status") })
        let paragraph = lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let numbers = try Regex(#"\b\d+\b"#)
        return Set(
            paragraph.joined(separator: " ").matches(of: numbers).compactMap {
                Int(String($0.output[0].substring ?? ""))
            }
        )
    }

    @Test("the tool's help lists every exit status the README documents; each command's help, those it uses")
    func exitStatuses() throws {
        let readme = try String(
            contentsOf: Self.golden.appendingPathComponent("../../../README.md").standardizedFileURL,
            encoding: .utf8
        )
        let documented = try #require(readme.components(separatedBy: "**Exit status:**").dropFirst().first)
        let statuses = try Regex(#"`(\d+)`"#)
        let paragraph = documented.components(separatedBy: "\n\n")[0]
        let inReadme = Set(paragraph.matches(of: statuses).compactMap { Int(String($0.output[1].substring ?? "")) })
        #expect(inReadme == [0, 1, 2, 3, 130, 143])
        #expect(try Self.exitStatuses(in: Self.expected("help.txt")) == inReadme)
        let uses: [String: Set<Int>] = [
            "run": [0, 1, 2, 3, 130, 143], "power": [0, 1, 2, 3, 130, 143], "matrix": [0, 1, 2, 3, 130, 143],
            "explore": [0, 1, 2, 3, 130, 143], "play": [0, 2, 3, 130, 143], "list": [0, 2, 3], "help": [0, 2],
        ]
        for (command, expected) in uses {
            #expect(try Self.exitStatuses(in: Self.expected("help-\(command).txt")) == expected, "\(command)")
        }
    }

    @Test("each usage line, printed under an error, is the one in the command's help")
    func usageUnderErrors() async throws {
        for command in CommandDescriptor.visible.map(\.name) where command != "help" {
            let output = try await Executable.racelab.run(command, "--no-such-option")
            #expect(output.status == 2)
            let usage = try #require(output.stderr.split(separator: "\n").last.map(String.init))
            #expect(try Self.expected("help-\(command).txt").contains("\n\(usage)\n"), "\(command)")
        }
    }
}

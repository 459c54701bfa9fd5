import Foundation
import Testing

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
    func overview(arguments: [String]) throws {
        let output = try Executable.racelab.run(arguments)
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        #expect(output.stdout == (try Self.expected("help.txt")))
    }

    @Test("each command's help, the same from 'help <command>' and '<command> --help'")
    func commands() throws {
        for command in ["list", "run", "power", "matrix", "explore", "play", "help"] {
            let expected = try Self.expected("help-\(command).txt")
            let output = try Executable.racelab.run("help", command)
            #expect(output.status == 0)
            #expect(output.stdout == expected, "help \(command)")
            guard command != "help" else { continue }
            for flag in ["--help", "-h"] {
                #expect(try Executable.racelab.run(command, flag).stdout == expected, "\(command) \(flag)")
            }
        }
    }

    @Test("an option shared by several commands reads the same in each command's help")
    func sharedOptionsReadAlike() throws {
        let texts = try ["run", "power", "matrix"].map { try Executable.racelab.run("help", $0).stdout }
        for line in [
            "  --iterations N       Operations per trial, one per concurrentPerform iteration",
            "  --seed S             Seed for the noise at race windows, decimal or 0x hex",
            "  --trials T           Independent trials per variant (default: the lesson's).",
        ] {
            #expect(texts.filter { $0.contains(line) }.count >= 2, "\(line)")
        }
        #expect(texts.allSatisfy { $0.contains("  -h, --help           Show this help.") })
    }

    @Test("each usage line, printed under an error, is the one in the command's help")
    func usageUnderErrors() throws {
        for command in ["run", "power", "matrix", "explore", "play", "list"] {
            let output = try Executable.racelab.run(command, "--no-such-option")
            #expect(output.status == 2)
            let usage = try #require(output.stderr.split(separator: "\n").last.map(String.init))
            #expect(try Self.expected("help-\(command).txt").contains("\n\(usage)\n"), "\(command)")
        }
    }
}

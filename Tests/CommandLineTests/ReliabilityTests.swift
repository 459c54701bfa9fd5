import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 14's promises that live in the command line: bad input gets one short, safe line and exit 2;
/// a run interrupted or set up on a broken temporary directory says so instead of lying or crashing.
@Suite("Reliability: bad input, broken temporary directories, interruptions")
struct ReliabilityTests {
    let parser = ArgumentParser(lessons: [ExploreCommandTests.lesson])

    @Test(
        "durations outside 0.1 s to 7 days are refused at parse time, huge ones included",
        arguments: ["1e300", "1e19", "604801", "0.05", "0", "inf", "nan", "-1"]
    )
    func durationRange(value: String) {
        for command in [["run", "1", "--timeout"], ["matrix", "1", "--timeout"], ["matrix", "1", "--budget"]] {
            let error = parser.refusal(command + [value])
            let option = command[2]
            #expect(
                error?.message == "\(option) must be a number of seconds from 0.1 to 604800 (7 days), got '\(value)'"
            )
        }
    }

    @Test("the bounds themselves are accepted")
    func durationBounds() throws {
        #expect(try parser.parse(["run", "1", "--timeout", "0.1"]) != .help(nil))
        #expect(try parser.parse(["matrix", "1", "--budget", "604800"]) != .help(nil))
    }

    @Test("seconds are formatted without trapping, however large")
    func formatsAnySeconds() {
        #expect(formatSeconds(60) == "60")
        #expect(formatSeconds(2.5) == "2.5")
        #expect(formatSeconds(1e300) == "1e+300")
        #expect(formatSeconds(1e19) == "1e+19")
        #expect(formatSeconds(.infinity) == "inf")
    }

    @Test(
        "a repeated or ignored option, or a replay string no program can follow, is refused with the reason",
        arguments: [
            (["run", "1", "--trials", "2", "--trials", "3"], "option '--trials' is given twice"),
            (["run", "1", "--json", "--json"], "option '--json' is given twice"),
            (["run", "1", "--seed=1", "--seed", "2"], "option '--seed' is given twice"),
            (["matrix", "--logs", "a", "--logs=b"], "option '--logs' is given twice"),
            (["explore", "1", "--threads", "2", "--threads", "3"], "option '--threads' is given twice"),
            (["power", "1", "--noise", "off"], "power measures with noise off and with noise on; it takes no --noise"),
            (
                ["explore", "1", "--variant", "lock-order", "--replay", "2:0.1@0a1b2c", "--strategy", "pct"],
                "--replay runs one given schedule; --strategy is for a search and cannot go with it"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--replay", "2:0.1@0a1b2c", "--schedules", "5"],
                "--replay runs one given schedule; --schedules is for a search and cannot go with it"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--seed", "4", "--replay", "2:0.1@0a1b2c"],
                "--replay runs one given schedule; --seed is for a search and cannot go with it"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--replay", "999:0@0a1b2c"],
                "--replay names 999 threads; a program here has at most 16"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--replay", "2:0.1.40@0a1b2c"],
                "--replay chooses thread 40, which no program of 2 threads can reach"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--replay", "2:0.1@0a1b2c", "--threads", "3"],
                "--replay names 2 threads but --threads is 3; give one of the two"
            ),
            (
                ["explore", "1", "--variant", "lock-order", "--steps", "2", "--replay", "2:0.1.0@0a1b2c"],
                "--replay names 3 choices, more than the 2 steps an execution may take (--steps)"
            ),
        ]
    )
    func refusesRepeatedIgnoredAndImpossible(arguments: [String], message: String) {
        #expect(parser.refusal(arguments)?.message == message)
    }

    @Test("an error line escapes control characters and cuts long input")
    func quotesInput() throws {
        #expect(quoted("plain") == "'plain'")
        #expect(quoted("\u{1B}]0;pwned\u{07}\u{1B}[2J") == "'\\e]0;pwned\\u{7}\\e[2J'")
        #expect(quoted("a\nb\u{2028}c\u{202E}d\u{85}") == "'a\\nb\\u{2028}c\\u{202E}d\\u{85}'")
        #expect(quoted("it's") == "'it\\'s'")
        let long = String(repeating: "7", count: 100_000)
        #expect(quoted(long) == "'" + String(repeating: "7", count: 200) + "' … (100000 characters)")

        let message = try #require(parser.refusal(["run", "\u{1B}]0;pwned\u{07}"])?.message)
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
        let replay = try #require(parser.refusal(["explore", "1", "--replay", "2:" + long + "x"])?.message)
        #expect(replay.count < 400)
    }

    @Test(
        "output files are checked before anything runs: a folder, a device, an empty path, a missing folder",
        arguments: [
            (["run", "1", "--junit", "/tmp"], "--junit '/tmp': is a folder, not a regular file; give a file name"),
            (
                ["run", "1", "--junit", "/dev/full"],
                "--junit '/dev/full': is a device, not a regular file; give a file name"
            ),
            (
                ["run", "1", "--html", "/dev/null"],
                "--html '/dev/null': is a device, not a regular file; give a file name"
            ),
            (
                ["explore", "1", "--trace", "/dev/full"],
                "--trace '/dev/full': is a device, not a regular file; give a file name"
            ),
            (["run", "1", "--junit="], "--junit '': is empty; give a file name"),
            (
                ["matrix", "--junit", "/nonexistent-racelab/dir/out.xml"],
                "--junit '/nonexistent-racelab/dir/out.xml': its folder does not exist (it is not created)"
            ),
        ]
    )
    func checksJUnitPath(arguments: [String], message: String) {
        #expect(parser.refusal(arguments)?.message == message)
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent-racelab"))
    }

    @Test("a TMPDIR that does not exist is refused with exit 2, and not created")
    func missingTemporaryDirectory() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-missing-\(UUID())").path
        let output = try await Executable.fixtures.run(["run", "synthetic"], environment: ["TMPDIR": missing])
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("racelab-fixtures: error: TMPDIR '\(missing)' does not exist"))
        #expect(output.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test(
        "a read-only TMPDIR is an ERROR that names the scratch folder, not a crash",
        .enabled(if: TinyFileSystem.available, "needs Linux and the right to mount a tmpfs")
    )
    func readOnlyTemporaryDirectory() async throws {
        let disk = try TinyFileSystem.mount(kilobytes: 64, readOnly: true)
        defer { TinyFileSystem.unmount(disk) }
        let output = try await Executable.fixtures.run(
            ["run", "synthetic", "--variant", "clean", "--json"],
            environment: ["TMPDIR": disk.path]
        )
        #expect(output.status == 3, "stderr: \(output.stderr)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(output.stdout.utf8))
        let variant = try #require(report.lessons.first?.variants.first)
        #expect(variant.verdict == .error)
        #expect(!variant.crashed)
        #expect(variant.verdictReason.contains("could not create the scratch folder: \(disk.path)/racelab-"))
        #expect(variant.verdictReason.hasSuffix(": Read-only file system"), "\(variant.verdictReason)")
    }

    @Test("a child killed by the watchdog leaves no scratch folder behind")
    func killedChildIsSwept() async throws {
        try await Executable.runFixtureHanging(
            ["run", "faults", "--variant", "hangs", "--timeout", "1"],
            folder: "racelab-tmp",
            temporaryDirectoryInFolder: true
        ) { output, mark, folder in
            #expect(output.status == 1)
            #expect(output.stdout.contains("TIMED OUT"))
            // The hanging child made its scratch folder (the mark is written after it), so there was one to sweep.
            #expect(FileManager.default.fileExists(atPath: mark))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(left.filter { $0.hasPrefix(ScratchSpace.prefix) }.isEmpty, "\(left)")
        }
    }
}

/// A run stopped by `SIGINT` or `SIGTERM` still reports the variants that finished.
///
/// The signal is sent while `faults`' `hangs` variant runs, known from the file it creates then
/// (not from a guessed delay): the two variants before it have finished by then, every time.
@Suite("Reliability: an interrupted run reports what finished")
struct InterruptionTests {
    func runInterrupted(by signal: Int32, json: Bool) async throws -> Executable.Output {
        // The variant hangs for 600 s; it is interrupted as soon as it has started.
        try await Executable.runFixtureHanging(
            ["run", "faults", "--timeout", "600"] + (json ? ["--json"] : []),
            folder: "racelab-int",
            interruptedBy: signal
        ) { output, mark, _ in
            #expect(FileManager.default.fileExists(atPath: mark), "the hanging variant never started")
            return output
        }
    }

    @Test("SIGINT: the text report of the finished variants, marked interrupted, exit 130")
    func interruptText() async throws {
        let output = try await runInterrupted(by: SIGINT, json: false)
        #expect(output.status == 130, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("▸ traps [fixed]"))
        #expect(output.stdout.contains("▸ traps-as-its-bug [buggy]"))
        #expect(!output.stdout.contains("▸ hangs"))
        #expect(output.stdout.contains("INTERRUPTED by SIGINT: the report above holds the 2 variants that finished"))
    }

    @Test("SIGTERM: the JSON report of the finished variants, with interrupted set, exit 143")
    func terminateJSON() async throws {
        let output = try await runInterrupted(by: SIGTERM, json: true)
        #expect(output.status == 143, "stderr: \(output.stderr)")
        let report = try JSONDecoder().decode(RunReport.self, from: Data(output.stdout.utf8))
        #expect(report.interrupted == "SIGTERM")
        #expect(!report.passed)
        #expect(report.lessons.flatMap(\.variants).map(\.name) == ["traps", "traps-as-its-bug"])
    }
}

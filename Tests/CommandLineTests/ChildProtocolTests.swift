import Foundation
import RaceLab
import Testing

/// The runner's children answer on a channel of their own, say which phase a crash happened in, and
/// leave nothing running; the `harness` fixture lesson holds one variant per case.
@Suite("run's children: the report channel, where a crash happened, what they leave behind")
struct ChildProtocolTests {
    func run(_ variant: String, environment: [String: String] = [:]) async throws -> (Executable.Output, VariantReport)
    {
        let output = try await Executable.fixtures.run(
            ["run", "harness", "--variant", variant, "--json"],
            environment: environment
        )
        let report = try JSONDecoder().decode(RunReport.self, from: Data(output.stdout.utf8))
        return (output, try #require(report.lessons.first?.variants.first))
    }

    @Test("a fixed variant whose check prints a marker line without a newline is CLEAN, not CRASHED")
    func checkThatPrints() async throws {
        let (output, report) = try await run("check-prints")
        #expect(output.status == 0)
        #expect(report.verdict == .clean)
        #expect(report.trials == 2)
    }

    @Test("a trap in the check of a crash-means-reproduced variant is CRASHED in the check, not REPRODUCED")
    func trapInTheCheck() async throws {
        let (output, report) = try await run("check-traps")
        #expect(output.status == 1)
        #expect(report.verdict == .crashed)
        // The check traps in both trials: the second ran in a fresh process, and its crash is no evidence either.
        #expect(report.crashedTrials?.map(\.whileChecking) == [true, true])
        #expect(
            report.verdictReason == "all 2 trials run died: trials 1 and 2 from signal 4 (SIGILL) while checking them",
            "\(report.verdictReason)"
        )
        #expect(report.stderrTail.contains { $0.contains("Fatal error: fixture check trap") })
    }

    @Test("a report followed by a failed exit is not used: CRASHED, with the status")
    func failedExitAfterReport() async throws {
        let (output, report) = try await run("exits-66-at-exit")
        #expect(output.status == 1)
        #expect(report.verdict == .crashed)
        #expect(report.exitStatus == 66)
        #expect(report.trials == 0)
        #expect(
            report.verdictReason
                == "the process exited with status 66 after writing its report, which is therefore not used"
        )
    }

    #if os(Linux)
    /// Foundation's `Process` starts its child in a process group of its own, out of reach of a kill of
    /// the variant's group; the variant's session still holds it.
    @Test("a process the variant started and left running is killed when the variant ends")
    func helperIsKilled() async throws {
        try await Executable.withTemporaryFolder("racelab-helper") { folder in
            let pidFile = folder.appendingPathComponent("pid").path
            let (output, report) = try await run("leaves-helper", environment: ["RACELAB_FIXTURE_HELPER_PID": pidFile])
            #expect(output.status == 0)
            #expect(report.verdict == .clean)
            let pid = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8)))
            #expect(!Self.isRunning(pid), "the helper \(pid) outlived the run")
        }
    }

    /// Whether `pid` runs and is not a zombie (a killed process its new parent has not reaped yet).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }
    #endif

    @Test("the folder of a run killed with SIGKILL is removed when the next run starts")
    func staleFolderIsSwept() async throws {
        try await Executable.withTemporaryFolder("racelab-tmp") { folder in
            // A process that has ended: its pid names a folder no process owns.
            let ended = Process()
            ended.executableURL = URL(fileURLWithPath: "/bin/sh")
            ended.arguments = ["-c", "exit 0"]
            try ended.run()
            ended.waitUntilExit()
            let stale = folder.appendingPathComponent("\(ScratchSpace.prefix)\(ended.processIdentifier)-1")
            try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: false)
            let other = folder.appendingPathComponent("not-racelab")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: false)
            let output = try await Executable.fixtures.run(
                ["explore", "exploring", "--variant", "locked"],
                environment: ["TMPDIR": folder.path]
            )
            #expect(output.status == 0)
            #expect(!FileManager.default.fileExists(atPath: stale.path))
            #expect(FileManager.default.fileExists(atPath: other.path))
        }
    }
}

/// Files the tool writes: never a FIFO it would block on, and one that fails costs no other output.
@Suite("Reliability: output files")
struct OutputFileTests {
    @Test("--junit, --html and --trace to a FIFO are refused with exit 2 at once, never opened")
    func fifoIsRefused() async throws {
        try await Executable.withTemporaryFolder("racelab-fifo") { folder in
            let fifo = folder.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            for arguments in [
                ["run", "synthetic", "--junit", fifo], ["run", "synthetic", "--html", fifo],
                ["explore", "exploring", "--variant", "locked", "--trace", fifo],
            ] {
                let output = try await Executable.fixtures.run(arguments)
                #expect(output.status == 2)
                #expect(output.stderr.contains("is a FIFO, not a regular file; give a file name"))
                #expect(output.stdout.isEmpty)
            }
        }
    }

    @Test(
        "an --html page that cannot be written is an error (exit 3), and --json is printed whole all the same",
        .enabled(if: TinyFileSystem.available, "needs a mountable tmpfs")
    )
    func failedPageKeepsJSON() async throws {
        let disk = try TinyFileSystem.mount(kilobytes: 4)
        defer { TinyFileSystem.unmount(disk) }
        // The page is several kilobytes: it passes the checks (an empty writable file) and fills the disk.
        let page = disk.appendingPathComponent("page.html").path
        #expect(FileManager.default.createFile(atPath: page, contents: nil))
        let explore = try await Executable.racelab.run(["explore", "1", "--variant", "buggy", "--json", "--html", page])
        #expect(explore.status == 3)
        #expect(explore.stderr.contains("cannot write the HTML page"))
        #expect(try JSONSerialization.jsonObject(with: Data(explore.stdout.utf8)) is [String: Any])
        // The run's page is smaller: another file takes the disk's one page first.
        #expect(FileManager.default.createFile(atPath: page, contents: nil))
        #expect(
            FileManager.default.createFile(atPath: disk.appendingPathComponent("filler").path, contents: Data("x".utf8))
        )
        let run = try await Executable.fixtures.run(["run", "synthetic", "--json", "--html", page])
        #expect(run.status == 3)
        #expect(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) is [String: Any])
    }
}

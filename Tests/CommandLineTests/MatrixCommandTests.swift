import Foundation
import RaceLab
import Testing

/// The repository's root, for the lessons' compiler probes.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `racelab matrix 1` with `arguments`, the lessons' compiler probes, its TSan logs in `folder` and
/// its JUnit document written to `junit`.
private func lessonOneMatrix(_ arguments: String..., folder: URL, junit: String) async throws -> Executable.Output {
    try await Executable.racelab.run(
        ["matrix", "1"] + arguments + [
            "--probes", repositoryRoot.appendingPathComponent("Lessons").path,
            "--logs", folder.appendingPathComponent("logs").path, "--junit", junit,
        ]
    )
}

/// Whether the racelab under test was built with ThreadSanitizer (`make test-tsan`).
let racelabIsSanitized =
    (try? Executable.racelab.runBlocking(["--version"]).stdout.contains("(ThreadSanitizer)")) ?? false

@Suite("racelab matrix, run as CI runs it", .serialized)
struct MatrixCommandTests {
    @Test(
        "lesson 1's rows: the runner and the compiler measured, TSan measured only in a TSan build, all as declared"
    )
    func lessonOne() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            let junit = folder.appendingPathComponent("matrix.xml").path
            let output = try await lessonOneMatrix(
                "--json",
                "--trials",
                "5",
                "--seed",
                "7",
                folder: folder,
                junit: junit
            )
            #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
            let matrix = try JSONDecoder().decode(ToolMatrix.self, from: Data(output.stdout.utf8))
            #expect(matrix.passed)
            #expect(matrix.settings.threadSanitizer == racelabIsSanitized)
            #expect(matrix.rows.map(\.variant) == ["buggy", "fixed", "actor"])
            #expect(matrix.rows.map(\.runner.verdict) == [.reproduced, .clean, .clean])
            #expect(matrix.rows.map(\.compiler.outcome) == [.rejected, .rejected, .accepted])
            // Checked against what the variants declare for this system (Linux is the one measured).
            #expect(matrix.settings.expectationsFile == nil)
            if let system = ToolExpectation.OperatingSystem.current, system == .linux {
                #expect(matrix.rows.allSatisfy { $0.expectation?.measuredOn == system })
            }
            #expect(
                matrix.rows[0].compiler.diagnostic
                    == "capture of 'self' with non-Sendable type 'Storage' in a '@Sendable' closure"
            )
            // Lesson 1's bug is made of synchronized steps: TSan, when it watches, sees nothing.
            #expect(matrix.rows.allSatisfy { $0.tsan.outcome == (racelabIsSanitized ? .silent : .notMeasured) })
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuite name="lesson 1: subscript-race" tests="3" failures="0""#))
        }
    }

    @Test("a row that differs from its expectation fails the run, and the output names the variant")
    func expectationMismatch() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            let expectations = folder.appendingPathComponent("expectations.txt")
            try Data(
                """
                subscript-race  buggy  silent  rejected
                subscript-race  fixed  silent  accepted
                subscript-race  actor  silent  accepted
                subscript-race  gone   silent  accepted
                """.utf8
            ).write(to: expectations)
            let junit = folder.appendingPathComponent("matrix.xml").path
            let output = try await lessonOneMatrix(
                "--trials",
                "3",
                "--expectations",
                expectations.path,
                folder: folder,
                junit: junit
            )
            #expect(output.status == 1)
            #expect(
                output.unwrappedStdout.contains(
                    "✗ lesson 1 subscript-race · fixed [fixed]: Swift 6 compiler: expected accepted, got rejected "
                        + "(capture of 'self' with non-Sendable type 'FixedStorage' in a '@Sendable' closure)"
                )
            )
            #expect(
                output.stdout.contains(
                    "matrix: FAIL, 1 of 3 rows differ from what was expected: subscript-race · fixed"
                )
            )
            #expect(
                output.unwrappedStdout.contains("line 4: lesson subscript-race has no variant 'gone' (stale line?)")
            )
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuite name="lesson 1: subscript-race" tests="3" failures="1""#))
        }
    }

    @Test("with stdout and stderr in one log, the note naming the JUnit file follows the summary on a line of its own")
    func junitNoteAfterSummary() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            let junit = folder.appendingPathComponent("matrix.xml").path
            let (status, text) = try await Executable.capture(
                Executable.productsFolder.appendingPathComponent("racelab"),
                [
                    "matrix", "1", "--trials", "2", "--probes", repositoryRoot.appendingPathComponent("Lessons").path,
                    "--logs", folder.appendingPathComponent("logs").path, "--junit", junit,
                ],
                stderr: .merged
            )
            #expect(status == 0, "\(text)")
            let lines = text.split(separator: "\n").map(String.init)
            let note = try #require(lines.firstIndex(of: "racelab: wrote JUnit XML to '\(junit)'"), "\(text)")
            let summary = try #require(lines.firstIndex { $0.hasPrefix("matrix: PASS") }, "\(text)")
            #expect(note == summary + 1)
            // A path longer than a line stays whole, on a line of its own.
            let fits = { (line: String) in line.count <= 100 || !line.drop { $0 == " " }.contains(" ") }
            #expect(lines.filter { $0 != lines[note] }.allSatisfy(fits), "\(text)")
        }
    }

    @Test("run --junit writes one test case per variant")
    func runJUnit() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            let junit = folder.appendingPathComponent("run.xml").path
            let output = try await Executable.racelab.run(
                "run",
                "1",
                "--trials",
                "3",
                "--iterations",
                "300",
                "--junit",
                junit
            )
            #expect(output.status == 0, "stderr: \(output.stderr)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.components(separatedBy: "<testcase ").count == 4)
            #expect(xml.contains(#"<testcase classname="racelab.subscript-race" name="buggy [buggy]""#))
            #expect(!xml.contains("<failure"))
        }
    }

    // setarch and /proc/self/personality: Linux only.
    #if os(Linux)
    @Test(
        "when TSan cannot map its shadow memory, the variant runs again under setarch -R, and so do later ones",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/setarch"), "needs setarch (Linux)")
    )
    func memoryMappingRetry() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            // A stand-in for a TSan build on a kernel whose address randomization TSan cannot live with:
            // it dies the way TSan does unless address randomization is off, then runs the real racelab.
            let racelab = Executable.productsFolder.appendingPathComponent("racelab").path
            let fake = folder.appendingPathComponent("racelab-on-a-new-kernel")
            try Data(
                """
                #!/bin/sh
                if [ "$1" = "--version" ]; then echo "racelab 0.1.0 (ThreadSanitizer)"; exit 0; fi
                if [ "$(cat /proc/self/personality)" = "00000000" ]; then
                  echo "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f1e4fa00000-0x7f1e4fc00000" >&2
                  exit 66
                fi
                exec "\(racelab)" "$@"
                """.utf8
            ).write(to: fake)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
            let noExpectations = folder.appendingPathComponent("expectations.txt")
            try Data().write(to: noExpectations)

            let output = try await Executable.racelab.run(
                "matrix",
                "1",
                "--json",
                "--trials",
                "3",
                "--executable",
                fake.path,
                "--expectations",
                noExpectations.path,
                "--probes",
                folder.path,
                "--logs",
                folder.appendingPathComponent("logs").path
            )
            #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
            let matrix = try JSONDecoder().decode(ToolMatrix.self, from: Data(output.stdout.utf8))
            #expect(matrix.settings.threadSanitizer)
            #expect(matrix.rows.allSatisfy { $0.tsan.ranWithoutAddressRandomization })
            #expect(matrix.rows.map(\.runner.verdict) == [.reproduced, .clean, .clean])
            #expect(matrix.rows.allSatisfy { $0.tsan.outcome == .silent })
        }
    }
    #endif

    @Test(
        "under TSan, each report goes to the variant that produced it: lesson 2's plain flag, not its fixes",
        .enabled(if: racelabIsSanitized, "needs a ThreadSanitizer build (make test-tsan)")
    )
    func attribution() async throws {
        try await Executable.withTemporaryFolder("racelab-matrix-test") { folder in
            let output = try await Executable.racelab.run(
                "matrix",
                "2",
                "--json",
                "--budget",
                "3",
                "--probes",
                repositoryRoot.appendingPathComponent("Lessons").path,
                "--logs",
                folder.path
            )
            let matrix = try JSONDecoder().decode(ToolMatrix.self, from: Data(output.stdout.utf8))
            #expect(output.status == 0, "stdout: \(output.stdout)")
            let reported = matrix.rows.filter { $0.tsan.outcome == .reported }.map(\.variant)
            #expect(reported == ["buggy", "errors-unprotected"])
            #expect(
                matrix.rows.filter { $0.role == .fixed }.allSatisfy {
                    $0.tsan.reports.isEmpty && $0.tsan.outcome == .silent
                }
            )
            let flag = try #require(matrix.rows.first { $0.variant == "buggy" })
            #expect(flag.tsan.reports.first?.location.hasSuffix("RacyOnce.swift") == false)
            #expect(
                flag.tsan.reports.first?.location.contains("Lessons/02-check-then-act/Buggy/RacyOnce.swift:") == true
            )
            #expect(flag.tsan.logs.allSatisfy { $0.contains("02-check-then-act.buggy.") })
        }
    }
}

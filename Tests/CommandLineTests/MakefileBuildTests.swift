import Foundation
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// `make lesson-N`, `explore-N` and `play-N` skip the release build when the racelab binary is
/// newer than every input it is built from, and build otherwise: a stale binary never runs. These
/// tests run the repository's Makefile in a scratch tree with a stand-in `swift` (which records
/// each build and writes a new binary) and a stand-in racelab (which prints what it was asked to
/// run), with every modification time set, so nothing depends on the clock or on a real build.
@Suite("the Makefile's participant targets build racelab only when an input is newer than it")
struct MakefileBuildTests {
    /// An input file of each kind the release build reads, and files beside them it does not read.
    static let inputs = [
        "Package.swift", "Sources/RaceLab/Runner.swift", "Plugins/Catalog/Plugin.swift",
        "Lessons/01-subscript-race/Buggy/Storage.swift",
    ]
    static let notInputs = [
        "Lessons/01-subscript-race/README.md", "Lessons/01-subscript-race/APPENDIX.md",
        "Lessons/01-subscript-race/Exercise/Storage.swift", "Lessons/01-subscript-race/CompilerProbes/Probe.swift",
    ]
    static let past = Date(timeIntervalSince1970: 1_600_000_000)
    static let built = past.addingTimeInterval(3_600)
    static let later = built.addingTimeInterval(3_600)

    /// A scratch tree whose inputs are all older than its racelab, and the stand-ins.
    static func tree(in root: URL, swiftFails: Bool = false) throws {
        let manager = FileManager.default
        for path in inputs + notInputs {
            let url = root.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("// \(path)\n".utf8).write(to: url)
        }
        try script(
            "#!/bin/sh\necho \"racelab $*\"\n",
            at: root.appendingPathComponent(".build/release/racelab")
        )
        // The stand-in build: records itself, then (unless it fails) writes the binary anew.
        try script(
            swiftFails
                ? "#!/bin/sh\necho \"error: stand-in build failed\"\nexit 1\n"
                : "#!/bin/sh\necho \"swift $*\" >> builds.log\ntouch .build/release/racelab\n",
            at: root.appendingPathComponent("swift")
        )
        // Every file and folder older than the binary, deepest first (setting a folder's time
        // after its files were written).
        let everything = (manager.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
            .sorted { $0.count > $1.count }
        for path in everything where !path.hasPrefix(".build") {
            try manager.setAttributes([.modificationDate: past], ofItemAtPath: root.appendingPathComponent(path).path)
        }
        try setTime(built, of: ".build/release/racelab", in: root)
    }

    static func script(_ text: String, at url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    static func setTime(_ date: Date, of path: String, in root: URL) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: date],
            ofItemAtPath: root.appendingPathComponent(path).path
        )
    }

    /// `make TARGET` with the repository's Makefile in `root`: its status, its output, and the
    /// builds the stand-in `swift` recorded.
    static func make(_ target: String, in root: URL) async throws -> (status: Int32, output: String, builds: Int) {
        let (status, output) = try await Executable.capture(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "make", "-s", "--no-print-directory", "-f", repositoryRoot.appendingPathComponent("Makefile").path,
                target, "SWIFT=./swift",
            ],
            in: root,
            stderr: .merged
        )
        let log = (try? String(contentsOf: root.appendingPathComponent("builds.log"), encoding: .utf8)) ?? ""
        return (status, output, log.split(separator: "\n").count)
    }

    @Test("no input newer than the binary: lesson, explore and play run it without a build")
    func currentBinaryRunsWithoutABuild() async throws {
        try await Executable.withTemporaryFolder("racelab-makefile") { root in
            try Self.tree(in: root)
            // Files the release build does not read, changed after it: still no build.
            for path in Self.notInputs { try Self.setTime(Self.later, of: path, in: root) }
            for (target, command) in [("lesson-2", "run 2"), ("explore-3", "explore 3"), ("play-1", "play 1")] {
                let result = try await Self.make(target, in: root)
                #expect(result.status == 0, "\(target): \(result.output)")
                #expect(result.output == "racelab \(command)\n", "\(target): \(result.output)")
                #expect(result.builds == 0, "\(target): \(result.output)")
            }
        }
    }

    @Test("any input newer than the binary builds it first, once", arguments: inputs + ["Lessons/01-subscript-race"])
    func newerInputBuilds(_ input: String) async throws {
        try await Executable.withTemporaryFolder("racelab-makefile") { root in
            try Self.tree(in: root)
            try Self.setTime(Self.later, of: input, in: root)
            let first = try await Self.make("lesson-1", in: root)
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("./swift build -c release --product racelab"), "\(first.output)")
            #expect(first.output.hasSuffix("racelab run 1\n"), "\(first.output)")
            #expect(first.builds == 1, "\(first.output)")
            // The build wrote the binary after the input changed: the next run does not build.
            let second = try await Self.make("lesson-1", in: root)
            #expect(second.builds == 1, "\(second.output)")
        }
    }

    @Test("no binary: it is built; a build that fails shows its output and nothing runs")
    func missingBinaryAndFailedBuild() async throws {
        try await Executable.withTemporaryFolder("racelab-makefile") { root in
            try Self.tree(in: root)
            try FileManager.default.removeItem(at: root.appendingPathComponent(".build/release/racelab"))
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(".build/release"),
                withIntermediateDirectories: true
            )
            let result = try await Self.make("explore-1", in: root)
            #expect(result.builds == 1, "\(result.output)")
        }
        try await Executable.withTemporaryFolder("racelab-makefile") { root in
            try Self.tree(in: root, swiftFails: true)
            try Self.setTime(Self.later, of: "Sources/RaceLab/Runner.swift", in: root)
            let result = try await Self.make("lesson-1", in: root)
            #expect(result.status != 0, "\(result.output)")
            #expect(result.output.contains("error: stand-in build failed"), "\(result.output)")
            #expect(!result.output.contains("racelab run"), "\(result.output)")
        }
    }
}

/// `make exercise-N` passes Scripts/check-exercise's status on, except a FAIL's: a FAIL (status 1)
/// is the expected answer to a wrong fix, so make ends with status 0 and without its
/// `make: *** [...] Error 1` line, which on a projector reads as the tool breaking. A file that does
/// not compile (status 3) is such an answer too. STRICT=1 passes those statuses on; an error of the
/// checker (status 2) or an interrupt always fails make. A stand-in checker exits with the status
/// under test.
@Suite("make exercise-N: a FAIL ends make without an error, an error of the checker does not")
struct MakefileExerciseStatusTests {
    static func make(_ arguments: [String], checkerStatus: Int) async throws -> (status: Int32, output: String) {
        try await Executable.withTemporaryFolder("racelab-makefile") { root in
            try MakefileBuildTests.script(
                "#!/bin/sh\necho \"check-exercise $*\"\nexit \(checkerStatus)\n",
                at: root.appendingPathComponent("Scripts/check-exercise")
            )
            let (status, output) = try await Executable.capture(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["make", "--no-print-directory", "-f", repositoryRoot.appendingPathComponent("Makefile").path]
                    + arguments,
                in: root,
                stderr: .merged
            )
            return (status, output)
        }
    }

    @Test(
        "the make status for each checker status, with and without STRICT=1",
        arguments: [
            (0, false, true), (1, false, true), (3, false, true), (2, false, false), (130, false, false),
            (0, true, true), (1, true, false), (3, true, false), (2, true, false),
        ]
    )
    func status(checkerStatus: Int, strict: Bool, makeSucceeds: Bool) async throws {
        let result = try await Self.make(["exercise-3", "STRICT=\(strict ? "1" : "")"], checkerStatus: checkerStatus)
        #expect(result.output.hasPrefix("Scripts/check-exercise 3\ncheck-exercise 3\n"), "\(result.output)")
        #expect((result.status == 0) == makeSucceeds, "\(result.output)")
        // make's own error line comes exactly with a failing status.
        #expect(result.output.contains("***") == !makeSucceeds, "\(result.output)")
    }
}

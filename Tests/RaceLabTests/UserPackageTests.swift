import Foundation
import RaceLab
import Testing

/// A package outside this repository that depends on RaceLab by path, tested the way its CI would:
/// `swift test` in its own folder. Its tests fail on purpose, and the output must show the report at
/// the test's own file and line.
@Suite(
    "A user's package runs RaceLabTesting's checks in its own swift test",
    .disabled(if: ThreadSanitizer.isActive, "builds and runs a whole package; the TSan run covers RaceLab itself")
)
struct UserPackageTests {
    /// This repository's root: Tests/RaceLabTests/<this file> is two folders below it.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "UserPackage",
            platforms: [.macOS(.v15)],
            dependencies: [.package(name: "RaceLab", path: "\(repository.path)")],
            targets: [
                .testTarget(
                    name: "UserTests",
                    dependencies: [.product(name: "RaceLabTesting", package: "RaceLab")]
                )
            ]
        )
        """

    /// A counter whose increment is a read, a window and a write: it loses increments.
    static let tests = """
        import Foundation
        import RaceLabTesting
        import Testing

        final class Counter: @unchecked Sendable {
            let lock = NSLock()
            var value = 0
            func increment() {
                let seen = lock.withLock { value }
                Race.window("between read and write")
                lock.withLock { value = seen + 1 }
            }
        }

        let counter = Variant(
            name: "user-counter", kind: .fixed, summary: "read, then write under the lock",
            makeState: { Counter() },
            operation: { counter, _ in counter.increment() },
            check: { counter, trial in .kept(counter.value, of: trial.iterations) })

        @Test func counterIsClean() async {
            await expectClean(counter, workload: Workload(trials: 200, iterations: 200), seed: 99)
        }
        """

    static let xcTests = """
        import RaceLabTesting
        import XCTest

        final class CounterXCTests: XCTestCase {
            func testCounterIsClean() async {
                await assertClean(counter, workload: Workload(trials: 200, iterations: 200), seed: 98)
            }
        }
        """

    /// A package folder `racelab-<name>-<process id>` in the temporary directory, made afresh, that
    /// holds `files` (a path in the package: the file's text), for the caller to remove.
    static func package(_ name: String, files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("racelab-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: folder)
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// Runs `swift test` in the package at `folder`, without this run's RACELAB_SEED and
    /// RACELAB_REPLAY, and returns its exit status and everything it printed.
    ///
    /// - Parameters:
    ///   - scratch: the build folder, in this repository (git-ignored), so that a second run is
    ///     incremental.
    ///   - arguments: more arguments for `swift test`.
    ///
    /// Started and waited for on a thread of its own, out of the cooperative pool.
    static func swiftTest(_ folder: URL, scratch: String, _ arguments: String...) async throws -> (Int32, String) {
        try await onOwnThread { () throws -> (Int32, String) in
            try swiftTestBlocking(folder, scratch: scratch, arguments)
        }
    }

    private static func swiftTestBlocking(
        _ folder: URL,
        scratch: String,
        _ arguments: [String]
    ) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swift", "test", "--package-path", folder.path]
            + ["--scratch-path", repository.appendingPathComponent(scratch).path] + arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "RACELAB_SEED")
        environment.removeValue(forKey: "RACELAB_REPLAY")
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("swift test fails at the user's line with the report and the seed to re-run it")
    func failureAtTheCallersLine() async throws {
        let folder = try Self.package(
            "user-package",
            files: [
                "Package.swift": Self.manifest,
                "Tests/UserTests/CounterTests.swift": Self.tests,
                "Tests/UserTests/CounterXCTests.swift": Self.xcTests,
            ]
        )
        defer { try? FileManager.default.removeItem(at: folder) }

        let (status, text) = try await Self.swiftTest(folder, scratch: ".build-user-package")

        let built = text.contains("counterIsClean")
        try #require(built, "the user package did not build or run:\n\(text.suffix(3000))")
        #expect(status != 0)
        // Swift Testing: the issue at the call's line (22 of CounterTests.swift), with the report.
        #expect(text.contains("CounterTests.swift:22:"), "\(text.suffix(3000))")
        #expect(text.contains("expectClean: 'user-counter' is not clean (FAILED)"))
        #expect(text.contains("FORBIDDEN"))
        #expect(text.contains("RACELAB_SEED=99"))
        // XCTest: XCTFail at the assertion's line (6 of CounterXCTests.swift).
        #expect(text.contains("CounterXCTests.swift:6: error"), "\(text.suffix(3000))")
        #expect(text.contains("assertClean: 'user-counter' is not clean (FAILED)"))
        #expect(text.contains("RACELAB_SEED=98"))
    }
}

import Foundation
import RaceLab

/// Runs a built executable of this package and captures what it printed.
struct Executable {
    let name: String

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the process exited, or a signal ended it.
        var reason: Process.TerminationReason = .exit

        /// `stdout` as one line, each line's indentation dropped: where a test looks for a sentence
        /// in text the report wraps to fit 100 columns.
        var unwrappedStdout: String {
            stdout.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
        }

        /// `stdout` with each command line that continues on the next (a line ending in ` \`) joined
        /// to it, as a shell reads it: where a test reads a replay line the report wraps.
        var joinedStdout: String {
            stdout.replacingOccurrences(of: #" \\\n *"#, with: " ", options: .regularExpression)
        }
    }

    static let racelab = Executable(name: "racelab")
    static let fixtures = Executable(name: "racelab-fixtures")

    /// The folder the test bundle was built into, where `swift build` puts the executables too.
    static var productsFolder: URL {
        #if os(Linux)
        let me =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        #else
        // The process is xctest or swiftpm-testing-helper, which loaded the test bundle.
        let me =
            Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") }?.bundlePath
            ?? CommandLine.arguments[0]
        #endif
        var url = URL(fileURLWithPath: me)
        // On Linux the test runner is `<products>/RaceLabPackageTests.xctest`; on macOS it is inside
        // `<products>/RaceLabPackageTests.xctest/Contents/MacOS/`.
        while url.pathComponents.count > 1 && !url.lastPathComponent.hasSuffix(".xctest") {
            url.deleteLastPathComponent()
        }
        return url.deletingLastPathComponent()
    }

    /// Runs `body` with a new empty folder `<prefix>-<UUID>` in the temporary directory, and removes
    /// the folder with everything in it when `body` returns or throws.
    static func withTemporaryFolder<Result>(
        _ prefix: String,
        _ body: (URL) async throws -> Result
    ) async throws -> Result {
        let folder = try makeTemporaryFolder(prefix)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder)
    }

    /// A new empty folder `<prefix>-<UUID>` in the temporary directory.
    private static func makeTemporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Slots for the child processes the tests run at once, one per processor: tests wait for their
    /// children off the cooperative pool, so nothing else bounds how many start together.
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// `body`, on the calling thread (a thread of its own, never the pool's) once a slot is free.
    fileprivate static func inSlot<Result>(_ body: () throws -> Result) rethrows -> Result {
        slots.wait()
        defer { slots.signal() }
        return try body()
    }

    /// The executable's absolute path: the command its printed command lines start with.
    var path: String { Self.productsFolder.appendingPathComponent(name).path }

    func run(_ arguments: String...) async throws -> Output {
        try await run(arguments)
    }

    /// A signal sent to the process once it has created the file `mark`: the point it is to be
    /// interrupted at, known from the file, not from a guessed delay.
    struct Interruption {
        var signal: Int32
        var mark: String
    }

    /// - Parameters:
    ///   - environment: variables set for the run, on top of this process's.
    ///   - input: what the process reads on stdin, then end of input; nil leaves stdin as it is.
    ///   - interruption: a signal to send once the process has made its mark. The wait for the mark
    ///     ends after 120 s only so that a broken build cannot hang the test run; the caller checks
    ///     that the mark exists.
    ///
    /// The process is started and waited for on a thread of its own, so that tests waiting for
    /// their processes leave the cooperative pool (two threads on a two-core machine) to the rest.
    func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        interruption: Interruption? = nil
    ) async throws -> Output {
        try await onOwnThread {
            try Executable.inSlot {
                try runBlocking(arguments, environment: environment, input: input, interruption: interruption)
            }
        }
    }

    /// `run(_:environment:input:interruption:)` on the calling thread, which it blocks until the
    /// process exits: only where no async context is at hand (a global's initializer).
    func runBlocking(
        _ arguments: [String],
        environment: [String: String] = [:],
        input: String? = nil,
        interruption: Interruption? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = Self.productsFolder.appendingPathComponent(name)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let folder = try Executable.makeTemporaryFolder("racelab-test")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let err = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        if let input {
            let inputFile = folder.appendingPathComponent("in")
            try Data(input.utf8).write(to: inputFile)
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        }
        try process.run()
        if let interruption {
            var polls = 0
            while !FileManager.default.fileExists(atPath: interruption.mark) && process.isRunning && polls < 6_000 {
                usleep(20_000)
                polls += 1
            }
            kill(process.processIdentifier, interruption.signal)
        }
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
            reason: process.terminationReason
        )
    }

    /// Runs the fixtures tool with `arguments` in a fresh scratch folder named after `prefix`
    /// (removed afterwards), its `hangs` variant told to create the file `hanging` there once it
    /// hangs (`RACELAB_FIXTURE_HANG_MARK`); with `signal`, the tool is interrupted then, never after
    /// a guessed delay; with `temporaryDirectoryInFolder`, the folder is the tool's `TMPDIR`.
    /// `body` gets the output, the mark's path and the folder.
    static func runFixtureHanging<Result>(
        _ arguments: [String],
        folder prefix: String,
        temporaryDirectoryInFolder: Bool = false,
        interruptedBy signal: Int32? = nil,
        _ body: (_ output: Output, _ mark: String, _ folder: URL) async throws -> Result
    ) async throws -> Result {
        try await withTemporaryFolder(prefix) { folder in
            let mark = folder.appendingPathComponent("hanging").path
            var environment = ["RACELAB_FIXTURE_HANG_MARK": mark]
            if temporaryDirectoryInFolder { environment["TMPDIR"] = folder.path }
            let output = try await fixtures.run(
                arguments,
                environment: environment,
                interruption: signal.map { Interruption(signal: $0, mark: mark) }
            )
            return try await body(output, mark, folder)
        }
    }
}

extension Executable {
    /// Where a captured program's stderr goes.
    enum StandardError {
        /// Into the same pipe as stdout, interleaved as the program wrote them.
        case merged
        /// To `/dev/null`.
        case discarded
        /// To the test process's own stderr.
        case inherited
    }

    /// Runs the program at `url` with `arguments` (in `folder`, or the current one) until it exits;
    /// its exit status and what it printed on stdout (and stderr, when `merged`). Started and waited
    /// for on a thread of its own, as `run` is.
    static func capture(
        _ url: URL,
        _ arguments: [String],
        in folder: URL? = nil,
        stderr: StandardError
    ) async throws -> (status: Int32, text: String) {
        try await onOwnThread { () throws -> (status: Int32, text: String) in
            try inSlot { try captureBlocking(url, arguments, in: folder, stderr: stderr) }
        }
    }

    private static func captureBlocking(
        _ url: URL,
        _ arguments: [String],
        in folder: URL?,
        stderr: StandardError
    ) throws -> (status: Int32, text: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let out = Pipe()
        process.standardOutput = out
        switch stderr {
        case .merged: process.standardError = out
        case .discarded: process.standardError = FileHandle.nullDevice
        case .inherited: break
        }
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

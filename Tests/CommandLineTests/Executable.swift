import Foundation

/// Runs a built executable of this package and captures what it printed.
struct Executable {
    let name: String

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String

        /// `stdout` as one line, each line's indentation dropped: where a test looks for a sentence
        /// in text the report wraps to fit 100 columns.
        var unwrappedStdout: String {
            stdout.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
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

    /// The executable's absolute path: the command its printed command lines start with.
    var path: String { Self.productsFolder.appendingPathComponent(name).path }

    func run(_ arguments: String...) throws -> Output {
        try run(arguments)
    }

    /// - Parameters:
    ///   - environment: variables set for the run, on top of this process's.
    ///   - input: what the process reads on stdin, then end of input; nil leaves stdin as it is.
    func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = Self.productsFolder.appendingPathComponent(name)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
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
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? ""
        )
    }
}

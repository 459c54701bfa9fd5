import Foundation
import RaceLab

extension RaceLabTool {
    /// `racelab matrix`: every variant through the stress runner, ThreadSanitizer and the Swift 6
    /// compiler, checked against the expectations the variants declare (see `ToolMatrix`).
    func matrix(_ request: MatrixRequest) -> ExitCode {
        ChildProcess.installInterruptHandler()
        let base = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> URL {
            path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: base).appendingPathComponent(path)
        }

        var executable = ChildProcess.currentExecutable
        if let other = request.executable {
            executable = absolute(other).path
            guard FileManager.default.isExecutableFile(atPath: executable) else {
                return usageFailure("--executable \(quoted(other)) is not an executable file")
            }
        }
        let sanitizer = sanitizerOf(executable)

        var expectations: MatrixExpectations?
        if let expectationsPath = request.expectations {
            guard FileManager.default.fileExists(atPath: absolute(expectationsPath).path) else {
                return usageFailure("no expectations file \(quoted(expectationsPath))")
            }
            guard let data = FileManager.default.contents(atPath: absolute(expectationsPath).path) else {
                return usageFailure("cannot read \(quoted(expectationsPath))")
            }
            do {
                expectations = try MatrixExpectations.parse(String(decoding: data, as: UTF8.self))
            } catch {
                return usageFailure("\(expectationsPath): \(error)")
            }
        }

        let logFolder =
            request.logs.map(absolute)
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("racelab-tsan-logs", isDirectory: true)
        // Only a TSan build writes logs: without one, no fixed-name folder is left in the temporary
        // directory. A folder given with --logs is made either way, as asked.
        if sanitizer.instrumented || request.logs != nil {
            do {
                try FileManager.default.createDirectory(at: logFolder, withIntermediateDirectories: true)
            } catch {
                return usageFailure("cannot create the log folder \(quoted(logFolder.path)): \(error)")
            }
        }

        var lessonsToRun = request.lessons.compactMap { number in lessons.first { $0.number == number } }
        if request.calibration { lessonsToRun.append(ThreadSanitizerCalibration.lesson) }
        let plan = MatrixRunner.Plan(
            tool: name,
            lessons: lessonsToRun,
            executable: executable,
            sanitized: sanitizer.instrumented,
            startWithoutRandomization: sanitizer.needsNoRandomization,
            logFolder: logFolder,
            probeFolder: absolute(request.probes),
            swiftc: CompilerProbe.locateCompiler(),
            expectations: expectations,
            expectationsFile: request.expectations,
            seed: request.seed ?? UInt64.random(in: 1...UInt64(UInt32.max)),
            noise: request.noise,
            budget: request.budget,
            trialCap: request.trials,
            timeout: request.timeout,
            base: base
        )

        let live = isatty(STDERR_FILENO) == 1
        var runner = MatrixRunner(plan: plan)
        let matrix = runner.run(
            progress: { line in
                printError((live ? "\r\u{1B}[K" : "") + line)
            },
            whileWaiting: { label, elapsed in
                guard live else { return }
                FileHandle.standardError.write(
                    Data("\r\u{1B}[Krunning \(label) … \(String(format: "%.1f", elapsed)) s".utf8)
                )
            }
        )

        if request.json {
            let printed = printJSON("matrix") { try matrix.jsonText() }
            if printed != .success { return printed }
        } else {
            print(MatrixText(matrix: matrix).render(), terminator: "")
        }
        if let junit = request.junit, !writeJUnit(JUnitDocument(matrix: matrix), to: junit) {
            return .error
        }
        return matrix.passed ? .success : .unexpectedVerdict
    }

    /// Whether `executable` is a ThreadSanitizer build, and whether TSan already refused to start in
    /// it because of the address layout (then every child starts under `setarch -R`).
    private func sanitizerOf(_ executable: String) -> (instrumented: Bool, needsNoRandomization: Bool) {
        if executable == ChildProcess.currentExecutable { return (ThreadSanitizer.isActive, false) }
        guard let result = try? ChildProcess.run(executable, arguments: ["--version"], timeout: 60) else {
            return (false, false)
        }
        let output = String(decoding: result.stdout + result.stderr, as: UTF8.self)
        if output.contains(ThreadSanitizer.unexpectedMappingMessage) { return (true, true) }
        return (output.contains("(ThreadSanitizer)"), false)
    }

    private func usageFailure(_ message: String) -> ExitCode {
        printError("\(name): error: \(message)")
        printError(HelpText(tool: name).usage(MatrixRequest.descriptor))
        return .usage
    }

    /// Writes `document` to `path`; says so on stderr and returns false when it cannot.
    func writeJUnit(_ document: JUnitDocument, to path: String) -> Bool {
        writeFile(path, what: "JUnit XML") { document.xml() }
    }

    /// Writes the text `make` returns to `path` and names the file it wrote in one line on stderr,
    /// where it stays out of a `--json` document on stdout; says so on stderr and returns false when
    /// it cannot (a failed write is an error of the machine, never a verdict).
    func writeFile(_ path: String, what: String, _ make: () throws -> String) -> Bool {
        do {
            try OutputPath.write(try make(), to: path)
            printError("\(name): wrote \(what) to \(quoted(path))")
            return true
        } catch {
            printError("\(name): error: cannot write \(what) to \(quoted(path)): \(describeError(error))")
            return false
        }
    }
}

import Foundation

/// Runs one variant in a child process of the current executable, so that a variant that traps
/// (a corrupted `Dictionary`, say) or hangs becomes a line in the report instead of the end of the run.
///
/// The child is the same executable started with the hidden `_run-variant` command; it runs the
/// variant with `StressRunner` and prints its `VariantReport` as one marked JSON line at the end of
/// its standard output, so that anything the lesson code prints cannot be mistaken for the report.
package enum IsolatedRun {
    /// The hidden command a child is started with; a tool that runs variants must accept it.
    package static let childCommand = "_run-variant"
    package static let reportMarker = "RACELAB-REPORT "
    static let stderrTailLines = 12

    package struct Request {
        var lesson: Lesson
        var variant: Variant
        var options: StressRunner.Options
        var timeout: Double

        package init(lesson: Lesson, variant: Variant, options: StressRunner.Options, timeout: Double) {
            self.lesson = lesson
            self.variant = variant
            self.options = options
            self.timeout = timeout
        }
    }

    /// Swift's crash backtracer prints registers and memory maps, which bury the one line that
    /// matters (`Fatal error: ...`) in a report's stderr tail. Children run without it unless the
    /// user asked for it explicitly.
    static var childEnvironment: [String: String] {
        ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil ? ["SWIFT_BACKTRACE": "enable=no"] : [:]
    }

    /// Arguments that make a child run `request`.
    static func childArguments(_ request: Request) -> [String] {
        [
            childCommand, String(request.lesson.number), request.variant.name,
            "--trials", String(request.options.workload.trials),
            "--iterations", String(request.options.workload.iterations),
            "--seed", String(request.options.seed),
            "--noise", request.options.noise ? "on" : "off",
        ] + (request.options.timeBudget.map { ["--budget", String($0)] } ?? [])
    }

    /// Runs `request` in a child of `executable` and returns the report, whatever became of the child.
    ///
    /// - Parameters:
    ///   - environment: more variables for the child (the matrix sets `TSAN_OPTIONS` here).
    ///   - launcher: a command that starts the child, e.g. `["/usr/bin/setarch", "x86_64", "-R"]`
    ///     to run it without address randomization; empty to start `executable` directly.
    package static func run(
        _ request: Request,
        executable: String,
        environment: [String: String] = [:],
        launcher: [String] = [],
        whileWaiting: (Double) -> Void = { _ in }
    ) -> VariantReport {
        let result: ChildProcess.Result
        let command = launcher + [executable] + childArguments(request)
        do {
            result = try ChildProcess.run(
                command[0],
                arguments: Array(command.dropFirst()),
                environment: childEnvironment.merging(environment) { _, new in new },
                timeout: request.timeout,
                whileWaiting: whileWaiting
            )
        } catch {
            // The child never started (no scratch folder for its output, a failed spawn): an error of
            // this machine, not something the variant did.
            return failedReport(
                request,
                wall: 0,
                stderr: ["\(error)"],
                termination: .exited(-1),
                notStarted: "\(error)"
            )
        }
        let stderrTail = tail(of: result.stderr, lines: stderrTailLines)
        if case .exited(0) = result.termination, let report = decodeReport(from: result.stdout) {
            return report
        }
        return failedReport(request, wall: result.wallSeconds, stderr: stderrTail, termination: result.termination)
    }

    /// The line a child prints for its report.
    package static func reportLine(_ report: VariantReport) throws -> String {
        reportMarker + (try JSONText.encode(report, pretty: false))
    }

    static func decodeReport(from stdout: Data) -> VariantReport? {
        let text = String(decoding: stdout, as: UTF8.self)
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix(reportMarker) }) else { return nil }
        return try? JSONDecoder().decode(VariantReport.self, from: Data(line.dropFirst(reportMarker.count).utf8))
    }

    /// The report for a child that crashed, was killed by the watchdog, or exited without a report.
    private static func failedReport(
        _ request: Request,
        wall: Double,
        stderr: [String],
        termination: ChildProcess.Termination,
        notStarted: String? = nil
    ) -> VariantReport {
        let variant = request.variant
        var signal: Int?
        var exitStatus: Int?
        var timedOut = false
        let verdict: Verdict
        let reason: String
        switch termination {
        case _ where notStarted != nil:
            verdict = .error
            reason = "the variant's process could not be started: \(notStarted ?? "")"
        case .timedOut:
            timedOut = true
            verdict = .timedOut
            reason = "still running after \(formatSeconds(request.timeout)) s; killed by the watchdog"
        case .signaled(let number):
            signal = Int(number)
            let died = "the process died from signal \(number) (\(signalName(number)))"
            if variant.kind == .buggy && variant.crashMeansReproduced {
                verdict = .reproduced
                reason = died + ", a known outcome of this bug"
            } else {
                verdict = .crashed
                reason = died
            }
        case .exited(let status):
            exitStatus = Int(status)
            verdict = .crashed
            reason =
                status == 0
                ? "the process exited without a report"
                : "the process exited with status \(status) without a report"
        }
        return VariantReport(
            name: variant.name,
            kind: variant.kind,
            summary: variant.summary,
            trials: 0,
            iterations: request.options.workload.iterations,
            operations: 0,
            anomalousTrials: 0,
            errorTrials: 0,
            lostWrites: 0,
            inconsistencies: 0,
            duplicates: 0,
            errors: notStarted == nil ? 0 : 1,
            crashed: !timedOut && notStarted == nil,
            signal: signal,
            exitStatus: exitStatus,
            timedOut: timedOut,
            timeoutSeconds: request.timeout,
            stderrTail: stderr,
            histogram: [],
            samples: [],
            wallSeconds: wall,
            operationsPerSecond: 0,
            seed: request.options.seed,
            noise: request.options.noise,
            firstAnomalousTrial: nil,
            secondsToFirstAnomaly: nil,
            verdict: verdict,
            verdictReason: reason
        )
    }

    /// The last `count` lines of a child's stderr, without stack-frame lines: what a reader needs
    /// is the message (`Fatal error: ...`), not addresses in `libdispatch.so`.
    static func tail(of data: Data, lines count: Int) -> [String] {
        let lines = String(decoding: data, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !isStackFrame($0) }
        return lines.suffix(count).map { String($0.prefix(300)) }
    }

    /// A line of a Swift runtime stack trace: `12   libdispatch.so   0x00007f... symbol + 830`.
    static func isStackFrame(_ line: Substring) -> Bool {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 3 && Int(fields[0]) != nil && fields[2].hasPrefix("0x")
    }
}

/// Seconds without a useless fraction: `60`, `2.5`.
///
/// Safe for any `Double`: a value too large for an `Int` (which `Int(_:)` would trap on), an
/// infinity or a NaN is printed in `%g` form instead.
package func formatSeconds(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return String(format: "%g", seconds) }
    return seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
}

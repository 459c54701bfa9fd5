import Foundation

/// Runs one variant in a child process of the current executable, so that a variant that traps
/// (a corrupted `Dictionary`, say) or hangs becomes a line in the report instead of the end of the run.
///
/// The child is the same executable serving a `ChildRequest`: it runs the variant with
/// `StressRunner` and answers with its `VariantReport` on its `ChildChannel`, so that nothing the
/// lesson code prints can be mistaken for the report or spoil it.
package enum IsolatedRun {
    static let stderrTailLines = 12

    package struct Request: Sendable {
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

        /// What the child is asked to do.
        var job: ChildRequest.Job {
            .run(workload: options.workload, seed: options.seed, noise: options.noise, budget: options.timeBudget)
        }
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
        let answer: ChildProcess.Answer
        do {
            answer = try ChildProcess.serve(
                request.job,
                lesson: request.lesson.number,
                variant: request.variant.name,
                executable: executable,
                environment: environment,
                launcher: launcher,
                timeout: request.timeout,
                whileWaiting: whileWaiting
            )
        } catch {
            // The child never started (no scratch folder for its output, a failed spawn): an error of
            // this machine, not something the variant did.
            return failedReport(request, wall: 0, stderr: ["\(error)"], ended: .notStarted("\(error)"))
        }
        if case .report(let report) = answer.reply { return report }
        return failedReport(
            request,
            wall: answer.result.wallSeconds,
            stderr: tail(of: answer.result.stderr, lines: stderrTailLines),
            trialsBefore: answer.progress,
            ended: answer.wroteResult
                ? .afterReport(answer.result.termination, answer.ending)
                : .ended(answer.result.termination, lastPhase: answer.lastPhase)
        )
    }

    /// How a child that left no report ended.
    private enum Ending {
        case notStarted(String)
        /// It ran and ended so, last saying it was in `lastPhase`.
        case ended(ChildProcess.Termination, lastPhase: ChildPhase?)
        /// It wrote its report, then failed to exit with status 0 (as `ending` says).
        case afterReport(ChildProcess.Termination, String)
    }

    /// The report for a child that crashed, was killed by the watchdog, or exited without a report.
    ///
    /// A crash counts as a buggy variant's bug (`crashMeansReproduced`) only when the child said it was
    /// running the variant's code: a crash in the check, or before the first trial, is the harness's.
    /// A child that said it was writing its report and left none failed to report: an error.
    /// `trialsBefore`, the child's last report of the trials it finished (see
    /// `ChildMessage.progress`), gives the report their counts and histogram, and the reason says
    /// what they showed: a crash must not hide lost writes seen before it.
    private static func failedReport(
        _ request: Request,
        wall: Double,
        stderr: [String],
        trialsBefore: VariantReport? = nil,
        ended: Ending
    ) -> VariantReport {
        let variant = request.variant
        var signal: Int?
        var exitStatus: Int?
        var timedOut = false
        /// The harness failed, not the variant: no start, or no report written.
        var harnessError = false
        let verdict: Verdict
        let reason: String
        switch ended {
        case .notStarted(let why):
            harnessError = true
            verdict = .error
            reason = "the variant's process could not be started: \(why)"
        case .afterReport(let termination, let ending):
            if case .signaled(let number) = termination { signal = Int(number) }
            if case .exited(let status) = termination { exitStatus = Int(status) }
            verdict = .crashed
            reason = "the process \(ending) after writing its report, which is therefore not used"
        case .ended(.timedOut, _):
            timedOut = true
            verdict = .timedOut
            reason = "still running after \(formatSeconds(request.timeout)) s; killed by the watchdog"
        case .ended(let termination, .report?):
            if case .signaled(let number) = termination { signal = Int(number) }
            if case .exited(let status) = termination { exitStatus = Int(status) }
            harnessError = true
            verdict = .error
            reason = "the variant ran, but its process could not write the report"
        case .ended(.signaled(let number), let phase):
            signal = Int(number)
            var died = "the process died from signal \(number) (\(signalName(number)))"
            if let before = trialsBefore, before.trials > 0 {
                died += " in trial \(before.trials + 1)"
            }
            if phase == .variant && variant.kind == .buggy && variant.crashMeansReproduced {
                verdict = .reproduced
                // Declared by the variant: its own code mutates shared state unsynchronised.
                reason = died + ", memory corrupted by the race"
            } else {
                verdict = .crashed
                let counted = (trialsBefore?.trials ?? 0) > 0
                reason = died + (phase == .check ? (counted ? " while checking it" : " while checking a trial") : "")
            }
        case .ended(.exited(let status), _):
            exitStatus = Int(status)
            verdict = .crashed
            reason =
                status == 0
                ? "the process exited without a report"
                : "the process exited with status \(status) without a report"
        }
        if let before = trialsBefore, before.trials > 0, case .ended(.signaled, let phase) = ended, phase != .report {
            // The trials that finished are evidence in their own right; the crash is reported beside them.
            var report = before
            report.crashed = true
            report.signal = signal
            report.timeoutSeconds = request.timeout
            report.stderrTail = stderr
            report.wallSeconds = wall
            report.operationsPerSecond = wall > 0 ? Double(report.operations) / wall : 0
            report.verdict = before.anomalousTrials > 0 && variant.kind == .buggy ? .reproduced : verdict
            report.verdictReason =
                report.verdict == .reproduced
                ? "the bug showed in \(before.anomalousTrials) of the \(before.trials) trials that finished; then \(reason)"
                : reason + "; the \(before.trials) trials before it showed no anomaly"
            return report
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
            errors: harnessError ? 1 : 0,
            crashed: !timedOut && !harnessError,
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

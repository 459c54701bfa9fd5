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

        /// What a child is asked to do: trials `firstTrial` on, within `budget` seconds.
        func job(firstTrial: Int, budget: Double?) -> ChildRequest.Job {
            .run(
                workload: options.workload,
                seed: options.seed,
                noise: options.noise,
                budget: budget,
                firstTrial: firstTrial
            )
        }
    }

    /// Runs `request` in a child of `executable` and returns the report, whatever became of the child.
    ///
    /// A variant that declares `Variant.crashMeansReproduced` reports after every trial, so when its
    /// process dies in a trial (in its own code or in the check) the trials that finished are kept,
    /// the crash is recorded with its trial's number, and the trials after it run in a fresh child:
    /// at most `VariantReport.crashLimit` crashes, within the time budget, unless the run was
    /// interrupted. Each child has the whole watchdog `timeout`. Any other ending (a timeout, an
    /// exit without a report, a crash before the first trial or while reporting) ends the run as it
    /// would a run in one child.
    ///
    /// - Parameters:
    ///   - environment: more variables for the child (the matrix sets `TSAN_OPTIONS` here).
    ///   - launcher: a command that starts the child, e.g. `["/usr/bin/setarch", "x86_64", "-R"]`
    ///     to run it without address randomization; empty to start `executable` directly.
    ///   - whileWaiting: called about every 100 ms with the seconds since the first child started.
    package static func run(
        _ request: Request,
        executable: String,
        environment: [String: String] = [:],
        launcher: [String] = [],
        whileWaiting: (Double) -> Void = { _ in }
    ) -> VariantReport {
        var run = ContinuedRun(request: request)
        while true {
            let answer: ChildProcess.Answer
            let before = run.wallSeconds
            do {
                answer = try ChildProcess.serve(
                    request.job(firstTrial: run.nextTrial, budget: run.remainingBudget),
                    lesson: request.lesson.number,
                    variant: request.variant.name,
                    executable: executable,
                    environment: environment,
                    launcher: launcher,
                    timeout: request.timeout,
                    whileWaiting: { whileWaiting(before + $0) }
                )
            } catch {
                // The child never started (no scratch folder for its output, a failed spawn): an error of
                // this machine, not something the variant did.
                return run.ended(
                    by: failedReport(request, wall: 0, stderr: ["\(error)"], ended: .notStarted("\(error)"))
                )
            }
            if case .report(let report) = answer.reply { return run.finished(report, wall: answer.result.wallSeconds) }
            if request.variant.crashMeansReproduced, ChildProcess.interruptingSignal == nil,
                case .signaled(let signal) = answer.result.termination,
                let phase = answer.lastPhase, phase != .report
            {
                // A trial's crash: what finished before it stands, and the trials after it may run on.
                run.crashed(
                    signal: Int(signal),
                    whileChecking: phase == .check,
                    progress: answer.progress,
                    wall: answer.result.wallSeconds,
                    stderr: tail(of: answer.result.stderr, lines: stderrTailLines)
                )
                if run.goesOn { continue }
                return run.report()
            }
            return run.ended(
                by: failedReport(
                    request,
                    wall: answer.result.wallSeconds,
                    stderr: tail(of: answer.result.stderr, lines: stderrTailLines),
                    ended: answer.wroteResult
                        ? .afterReport(answer.result.termination, answer.ending)
                        : .ended(answer.result.termination, lastPhase: answer.lastPhase)
                )
            )
        }
    }

    /// How a child that left no report ended.
    private enum Ending {
        case notStarted(String)
        /// It ran and ended so, last saying it was in `lastPhase`.
        case ended(ChildProcess.Termination, lastPhase: ChildPhase?)
        /// It wrote its report, then failed to exit with status 0 (as `ending` says).
        case afterReport(ChildProcess.Termination, String)
    }

    /// The report for a child that crashed, was killed by the watchdog, or exited without a report,
    /// with no trial's counts (see `ContinuedRun` for a crash in a trial that reported its progress).
    ///
    /// A crash counts as a buggy variant's bug (`crashMeansReproduced`) only when the child said it was
    /// running the variant's code: a crash in the check, or before the first trial, is the harness's.
    /// A child that said it was writing its report and left none failed to report: an error.
    private static func failedReport(
        _ request: Request,
        wall: Double,
        stderr: [String],
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
            let died = "the process died from signal \(number) (\(signalName(number)))"
            if phase == .variant && variant.kind == .buggy && variant.crashMeansReproduced {
                verdict = .reproduced
                // Declared by the variant: its own code mutates shared state unsynchronised.
                reason = died + ", memory corrupted by the race"
            } else {
                verdict = .crashed
                reason = died + (phase == .check ? " while checking a trial" : "")
            }
        case .ended(.exited(let status), _):
            exitStatus = Int(status)
            verdict = .crashed
            reason =
                status == 0
                ? "the process exited without a report"
                : "the process exited with status \(status) without a report"
        }
        var report = emptyReport(request)
        report.errors = harnessError ? 1 : 0
        report.crashed = !timedOut && !harnessError
        report.signal = signal
        report.exitStatus = exitStatus
        report.timedOut = timedOut
        report.stderrTail = stderr
        report.wallSeconds = wall
        report.verdict = verdict
        report.verdictReason = reason
        return report
    }

    /// A report of no trial, for `request`'s variant, options and watchdog.
    static func emptyReport(_ request: Request) -> VariantReport {
        VariantReport(
            name: request.variant.name,
            kind: request.variant.kind,
            summary: request.variant.summary,
            trials: 0,
            iterations: request.options.workload.iterations,
            operations: 0,
            anomalousTrials: 0,
            errorTrials: 0,
            lostWrites: 0,
            inconsistencies: 0,
            duplicates: 0,
            errors: 0,
            timeoutSeconds: request.timeout,
            histogram: [],
            samples: [],
            wallSeconds: 0,
            operationsPerSecond: 0,
            seed: request.options.seed,
            noise: request.options.noise,
            firstAnomalousTrial: nil,
            secondsToFirstAnomaly: nil,
            verdict: .error,
            verdictReason: ""
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

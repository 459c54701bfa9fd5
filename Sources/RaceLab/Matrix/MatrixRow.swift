/// One row of the "which tool catches which bug" matrix: one variant, and what each of the three
/// tools made of it in this run.
public struct MatrixRow: Sendable, Codable, Equatable {
    /// Whether the row is a lesson's variant or a calibration of TSan itself.
    public enum Role: String, Sendable, Codable {
        /// A buggy variant: the runner must reproduce it.
        case buggy
        /// A fixed variant: the runner must find it clean, and TSan silent.
        case fixed
        /// Correct code run to measure TSan, not a lesson: a report here is a false positive.
        case calibration
    }

    /// What the stress runner measured, in the same process TSan watched.
    public struct RunnerCell: Sendable, Codable, Equatable {
        /// The runner's verdict.
        public var verdict: Verdict
        /// Trials run.
        public var trials: Int
        /// Operations per trial.
        public var iterations: Int
        /// Trials that showed an anomaly.
        public var anomalousTrials: Int
        /// Trials with errors: not evidence either way (see `Verdict.error`).
        public var errorTrials: Int
        /// Wall time of all trials, in seconds.
        public var wallSeconds: Double
        /// Why the verdict is what it is, in one sentence.
        public var reason: String
        /// The verdict is the one the variant's kind calls for.
        public var passed: Bool

        init(_ report: VariantReport) {
            verdict = report.verdict
            trials = report.trials
            iterations = report.iterations
            anomalousTrials = report.anomalousTrials
            errorTrials = report.errorTrials
            wallSeconds = report.wallSeconds
            reason = report.verdictReason
            passed = report.passed
        }
    }

    /// What ThreadSanitizer reported for the variant's processes.
    public struct TSanCell: Sendable, Codable, Equatable {
        /// What TSan made of the variant.
        public enum Outcome: String, Sendable, Codable {
            /// TSan watched the run and reported nothing.
            case silent
            /// TSan reported at least one race (`reports`).
            case reported
            /// The variant did not run under TSan (not a TSan build).
            case notMeasured = "not-measured"
            /// TSan itself failed (it could not start, say), so its silence means nothing.
            case failed
        }

        /// Silent, reported, not measured, or failed.
        public var outcome: Outcome
        /// Distinct races (see `SanitizerReport.identity`).
        public var reports: [SanitizerReport]
        /// Warnings TSan printed, duplicates of one race included.
        public var warnings: Int
        /// Processes that wrote a log (the variant's, and its worker processes').
        public var processes: Int
        /// The log files, to read the full reports.
        public var logs: [String]
        /// Failures that are not reports (`FATAL: ...`, a crash TSan caught).
        public var failures: [String]
        /// The variant ran again under `setarch -R` after TSan refused the address layout.
        public var ranWithoutAddressRandomization: Bool

        /// The cell of a run without TSan.
        public static let notMeasured = TSanCell(
            outcome: .notMeasured,
            reports: [],
            warnings: 0,
            processes: 0,
            logs: [],
            failures: [],
            ranWithoutAddressRandomization: false
        )
    }

    /// The lesson's number (0 for the calibration rows).
    public var lesson: Int
    /// The lesson's slug.
    public var slug: String
    /// The variant's name.
    public var variant: String
    /// Buggy, fixed, or calibration.
    public var role: Role
    /// What the variant does, in one line.
    public var summary: String
    /// What the stress runner measured.
    public var runner: RunnerCell
    /// What ThreadSanitizer reported.
    public var tsan: TSanCell
    /// What the Swift 6 compiler said about the variant's probe.
    public var compiler: CompilerVerdict
    /// What TSan and the compiler were expected to do: the expectation the variant declares for the
    /// operating system of this run (or the `--expectations` file's line). Nil when there is none:
    /// the row is *unmeasured* on this system, and only the rules that need no expectation apply.
    public var expectation: ToolExpectation?
    /// What differs from what was expected, one sentence each; empty when the row is as expected.
    public var problems: [String]

    /// The row is as expected: no problems.
    public var passed: Bool { problems.isEmpty }

    /// No expectation was measured for this variant on this system (see `expectation`).
    public var unmeasured: Bool { expectation == nil }

    /// The problems of a row, by the rules of `make tsan`:
    ///
    /// - the runner must reproduce a buggy variant and find a fixed one (or a calibration) clean;
    /// - a fixed variant must be silent under TSan, whatever its expectation says;
    /// - TSan's outcome must match the expectation (`silent` / `reported`), and TSan must not fail;
    /// - the compiler's outcome must match the expectation.
    static func problems(
        role: Role,
        runner: RunnerCell,
        tsan: TSanCell,
        compiler: CompilerVerdict,
        expectation: ToolExpectation?
    ) -> [String] {
        var problems: [String] = []
        if !runner.passed {
            let wanted = role == .buggy ? "a buggy variant must reproduce its bug" : "it must stay clean"
            problems.append("runner: \(runner.verdict.label.lowercased()) (\(runner.reason)); \(wanted)")
        }
        switch tsan.outcome {
        case .notMeasured:
            break
        case .failed:
            problems.append("TSan failed, so its silence means nothing: " + (tsan.failures.first ?? "no log"))
        case .silent, .reported:
            let count = tsan.reports.count
            if role == .fixed && count > 0 {
                let first = tsan.reports[0].headline
                problems.append(
                    "TSan reported \(count) race\(count == 1 ? "" : "s") in a fixed variant (first: \(first))"
                )
            } else if let expected = expectation?.tsan {
                switch (expected, tsan.outcome) {
                case (.silent, .reported):
                    problems.append(
                        "TSan: expected silent, got \(count) report\(count == 1 ? "" : "s") (first: \(tsan.reports[0].headline))"
                    )
                case (.reported, .silent):
                    problems.append("TSan: expected a report, got none")
                default:
                    break
                }
            }
        }
        if let expected = expectation?.compiler, expected != .any, expected.rawValue != compiler.outcome.rawValue {
            var got = compiler.outcome.rawValue
            if let diagnostic = compiler.diagnostic { got += " (\(diagnostic))" }
            if let note = compiler.note { got += " (\(note))" }
            problems.append("Swift 6 compiler: expected \(expected.rawValue), got \(got)")
        }
        return problems
    }
}

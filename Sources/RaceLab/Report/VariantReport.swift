/// Everything measured in one run of one variant: the unit of the report and of `--json`.
///
/// All counts are totals over the run's trials unless the name says otherwise. Times are wall-clock
/// seconds measured in that run.
public struct VariantReport: Sendable, Codable, Equatable {
    /// The variant's name.
    public var name: String
    /// Whether the variant is buggy or fixed: what its verdict is judged against.
    public var kind: VariantKind
    /// What the variant does, in one line.
    public var summary: String
    /// Independent trials that finished: every count below is over these. Fewer than asked when a
    /// trial crashed (see `crashedTrials`), the process was killed, or a time budget ran out (see
    /// `StressRunner.Options.timeBudget`).
    public var trials: Int
    /// Operations per trial.
    public var iterations: Int
    /// The operations run: `iterations` for each trial whose setup succeeded (a trial that could
    /// not be set up ran none).
    public var operations: Int
    /// Trials without errors that showed the bug's signature: at least one lost write, duplicate or
    /// inconsistency. The only trials that count as evidence.
    public var anomalousTrials: Int
    /// Trials with at least one error (failed setup, an operation or check that threw, a failure the
    /// check reported in `Observation.errors`). They are never counted as evidence of the bug.
    public var errorTrials: Int
    /// Writes missing from the final state, summed over the trials without errors (an error trial's
    /// missing writes are what the error did, not evidence).
    public var lostWrites: Int
    /// Invariant violations, summed over the trials without errors.
    public var inconsistencies: Int
    /// Work done more often than allowed, summed over the trials without errors.
    public var duplicates: Int
    /// Errors, summed over trials: thrown by setup, operations or checks, recorded with
    /// `Iteration.recordError`, or counted by a check in `Observation.errors`.
    public var errors: Int
    // What happened to the variant's process. A report made in the process that ran the trials
    // (`StressRunner`) leaves these at their defaults, a process that ended on its own; the parent
    // (`IsolatedRun`) fills them in.
    /// The variant's process died before reporting.
    public var crashed: Bool = false
    /// The signal that killed it, when it died from one.
    public var signal: Int? = nil
    /// Its exit status, when it exited non-zero instead.
    public var exitStatus: Int? = nil
    /// The trials whose process died in them, in order; nil when none did, or when the trial is not
    /// known (a variant that does not declare `Variant.crashMeansReproduced` reports no trial until
    /// its run ends). The trials after a crash ran in a fresh process, up to
    /// `VariantReport.crashLimit` crashes.
    public var crashedTrials: [CrashedTrial]? = nil
    /// The watchdog killed it.
    public var timedOut: Bool = false
    /// The watchdog's limit, in seconds.
    public var timeoutSeconds: Double? = nil
    /// The last lines the process wrote to stderr, when it crashed or timed out.
    public var stderrTail: [String] = []
    /// One row per distinct outcome, in outcome order (see `HistogramRow`).
    public var histogram: [HistogramRow]
    /// The first few distinct inconsistency and error messages, as the variant described them.
    public var samples: [String]
    /// Wall time of all trials, setup and checks included.
    public var wallSeconds: Double
    /// `operations / wallSeconds`.
    public var operationsPerSecond: Double
    /// The seed noise decisions followed.
    public var seed: UInt64
    /// Whether noise was injected at race windows.
    public var noise: Bool
    /// The number (1-based) of the first trial that showed an anomaly, if any did.
    public var firstAnomalousTrial: Int?
    /// Seconds from the start of the run to the end of that trial.
    public var secondsToFirstAnomaly: Double?
    /// What the run shows (see `Verdict`).
    public var verdict: Verdict
    /// One sentence on why the verdict is what it is.
    public var verdictReason: String
    /// Race windows (`Race.window`) reached, summed over every iteration of every trial; nil when the
    /// variant's process sent no report. Zero means noise had nothing to act on: a buggy variant NOT
    /// REPRODUCED, or a fixed one CLEAN, with no window reached is weak evidence either way.
    public var windowsReached: Int? = nil

    /// Why the variant is declared *unmeasured* on the system that ran it (`Variant.unmeasured(on:because:)`),
    /// when it is: it has no measured expectation there, so its verdict is reported but does not
    /// decide the run's (`RunReport.LessonReport.passed`).
    public var unmeasured: String? = nil

    /// What the design did that is no anomaly (`Observation.tallies`), summed over the trials
    /// without errors; nil when the variant counts nothing of the kind.
    public var tallies: [Tally]? = nil

    /// Trials that ran: those that finished and those whose process died in them.
    public var trialsRun: Int { trials + (crashedTrials?.count ?? 0) }

    /// A trial in which the variant's process died.
    public struct CrashedTrial: Sendable, Codable, Equatable {
        /// The trial's number, from 1, in the whole run.
        public var trial: Int
        /// The signal that killed the process.
        public var signal: Int
        /// Whether it died while the trial was being checked rather than while the variant's own
        /// code ran: such a crash is never evidence of the bug.
        public var whileChecking: Bool

        /// A crashed trial.
        /// - Parameters:
        ///   - trial: its number, from 1.
        ///   - signal: the signal that killed the process.
        ///   - whileChecking: whether it died in the check.
        public init(trial: Int, signal: Int, whileChecking: Bool) {
            self.trial = trial
            self.signal = signal
            self.whileChecking = whileChecking
        }
    }

    /// Crashes after which a run goes on in a fresh process: after this many, the trials left do
    /// not run, so that a variant that crashes in every trial ends.
    public static let crashLimit = 10

    /// Whether the verdict is the one this variant's kind should get.
    public var passed: Bool { verdict.isExpected(for: kind) }

    /// Whether the variant's verdict decides its lesson's: not when it is unmeasured on this system.
    public var decides: Bool { unmeasured == nil }

    /// The report as `racelab run` prints it: the variant line, the counts, the outcome histogram
    /// and the verdict with its reason.
    public var text: String { TextReport().variant(self) }

    /// What a report says when its run reached no race window.
    public static let noWindowReached =
        "no race window was reached: noise could not act; mark the window with `Race.window`"
}

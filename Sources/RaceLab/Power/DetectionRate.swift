import Foundation

/// How often one way of running a buggy variant exposed its bug: one row of a `PowerMeasurement`
/// (`racelab power`).
///
/// Trials are independent (each starts from fresh state), so the number of exposing trials is a
/// binomial sample and its share estimates the probability per trial. The interval is Wilson's
/// score interval, which stays honest at 0 and at rates near 0 or 1, where the textbook
/// `p ± 1.96·√(p(1−p)/n)` collapses to a point.
public struct DetectionRate: Sendable, Codable, Equatable {
    /// The buggy variant measured.
    public var variant: String
    /// How the variant was run, e.g. `"noise off"`.
    public var strategy: String
    /// Trials run (runner strategies) or schedules sampled (explorer strategies).
    public var trials: Int
    /// Trials in which the bug showed.
    public var exposedTrials: Int
    /// `exposedTrials / trials`.
    public var probability: Double
    /// 95% Wilson score interval for the probability per trial: `[lower, upper]`.
    public var confidenceInterval: [Double]
    /// The first trial (1-based) that exposed the bug.
    public var firstExposureTrial: Int?
    /// Seconds from the start of the run to the end of that trial.
    public var secondsToFirstExposure: Double?
    /// Wall time of all trials.
    public var wallSeconds: Double
    /// The run did not complete (crash or timeout); the other figures are then empty.
    public var verdict: Verdict
    /// Runner strategies: the race windows the run reached (see `VariantReport.windowsReached`).
    /// Zero means noise on and noise off ran the same code: the comparison says nothing of noise.
    public var windowsReached: Int? = nil

    init(strategy: String, report: VariantReport) {
        variant = report.name
        self.strategy = strategy
        trials = report.trials
        exposedTrials = report.anomalousTrials
        probability = report.trials > 0 ? Double(report.anomalousTrials) / Double(report.trials) : 0
        confidenceInterval = Self.wilson(successes: report.anomalousTrials, trials: report.trials)
        firstExposureTrial = report.firstAnomalousTrial
        secondsToFirstExposure = report.secondsToFirstAnomaly
        wallSeconds = report.wallSeconds
        verdict = report.verdict
        windowsReached = report.windowsReached
    }

    /// The rate at which a schedule explorer strategy's executions failed: each execution is one
    /// independent trial (random and PCT draw every schedule afresh from the seed).
    init(variant: String, strategy: String, exploration report: ExplorationReport) {
        self.variant = variant
        self.strategy = strategy
        trials = report.schedules
        exposedTrials = report.failingSchedules
        probability = report.hitRate
        confidenceInterval = Self.wilson(successes: report.failingSchedules, trials: report.schedules)
        firstExposureTrial = report.firstFailingSchedule
        secondsToFirstExposure = report.secondsToFirstFailure
        wallSeconds = report.elapsedSeconds
        verdict = report.abandoned != nil ? .timedOut : (report.failingSchedules > 0 ? .reproduced : .notReproduced)
    }

    /// The row of a run that ended without figures: its process crashed, or the harness failed.
    init(variant: String, strategy: String, ended verdict: Verdict) {
        self.variant = variant
        self.strategy = strategy
        trials = 0
        exposedTrials = 0
        probability = 0
        confidenceInterval = Self.wilson(successes: 0, trials: 0)
        wallSeconds = 0
        self.verdict = verdict
    }

    /// The 95% Wilson score interval for `successes` out of `trials`.
    static func wilson(successes: Int, trials: Int, z: Double = 1.959964) -> [Double] {
        guard trials > 0 else { return [0, 1] }
        let n = Double(trials)
        let p = Double(successes) / n
        let denominator = 1 + z * z / n
        let center = (p + z * z / (2 * n)) / denominator
        let half = z * ((p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / denominator
        return [max(0, center - half), min(1, center + half)]
    }

    /// Whether the run completed (a crash, a timeout or a harness that failed leaves nothing to measure).
    public var completed: Bool { verdict != .crashed && verdict != .timedOut && trials > 0 }
}

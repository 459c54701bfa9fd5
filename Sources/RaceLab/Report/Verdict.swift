/// The judgement on one variant's run.
public enum Verdict: String, Sendable, Codable {
    /// A buggy variant showed its bug in at least one trial.
    case reproduced
    /// A buggy variant ran every trial without showing its bug.
    case notReproduced = "not-reproduced"
    /// A fixed variant ran every trial without an anomaly.
    case clean
    /// A fixed variant showed an anomaly.
    case failed
    /// The variant's process died (signal or non-zero exit) before reporting.
    case crashed
    /// The variant's process was still running when the watchdog's time ran out, and was killed.
    case timedOut = "timed-out"
    /// The run could not say anything about the bug: trials failed for a reason that is not the
    /// bug's signature (a failed setup, a system call that failed, a check that threw, a process
    /// that could not be started), and the trials that did run cleanly showed no evidence either way.
    ///
    /// An error is never evidence of a bug: a trial with an error counts toward neither
    /// `reproduced` nor `failed`, whatever its other numbers say.
    case error

    /// Whether this verdict is what a variant of `kind` should get.
    public func isExpected(for kind: VariantKind) -> Bool {
        switch kind {
        case .buggy: self == .reproduced
        case .fixed: self == .clean
        }
    }

    /// The verdict for a variant that ran to the end.
    ///
    /// Evidence comes only from trials without errors: one such trial with the bug's signature makes a
    /// buggy variant `reproduced` and a fixed one `failed`, even if other trials had errors. Without
    /// such evidence, any trial with an error makes the verdict `error`: the run cannot vouch that the
    /// bug is absent (or that the fix holds) when part of it did not run as written.
    ///
    /// - Parameters:
    ///   - anomalousTrials: trials without errors whose check found the bug's signature.
    ///   - errorTrials: trials with at least one error.
    static func judging(_ kind: VariantKind, anomalousTrials: Int, errorTrials: Int = 0) -> Verdict {
        switch kind {
        case .buggy: anomalousTrials > 0 ? .reproduced : errorTrials > 0 ? .error : .notReproduced
        case .fixed: anomalousTrials > 0 ? .failed : errorTrials > 0 ? .error : .clean
        }
    }

    /// How the verdict prints in a terminal report.
    public var label: String {
        switch self {
        case .reproduced: "REPRODUCED"
        case .notReproduced: "NOT REPRODUCED"
        case .clean: "CLEAN"
        case .failed: "FAILED"
        case .crashed: "CRASHED"
        case .timedOut: "TIMED OUT"
        case .error: "ERROR"
        }
    }
}

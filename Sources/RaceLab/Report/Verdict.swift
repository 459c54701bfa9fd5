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

    /// Whether this verdict is what a variant of `kind` should get.
    public func isExpected(for kind: VariantKind) -> Bool {
        switch kind {
        case .buggy: self == .reproduced
        case .fixed: self == .clean
        }
    }

    /// The verdict for a variant that ran to the end.
    static func judging(_ kind: VariantKind, anomalousTrials: Int) -> Verdict {
        switch kind {
        case .buggy: anomalousTrials > 0 ? .reproduced : .notReproduced
        case .fixed: anomalousTrials > 0 ? .failed : .clean
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
        }
    }
}

/// A variant's exploration that ended without a result: its process died (a trap, a signal, an
/// `exit` called by the code under test), or could not be started or report. It has a verdict of its
/// own, never FOUND, CLEAN or any other verdict about the bug: whatever the search had seen died
/// with the process.
public struct ExplorationFailure: Sendable, Codable, Equatable {
    /// The variant's name.
    public var variant: String
    /// Whether the variant is buggy or fixed.
    public var kind: VariantKind
    /// `crashed` when the process ended early; `error` when the harness failed (no process started,
    /// no report written).
    public var verdict: Verdict
    /// What happened, in one line.
    public var verdictReason: String
    /// The signal that killed the process.
    public var signal: Int?
    /// The status the process exited with, without a report.
    public var exitStatus: Int?
    /// The last lines the process wrote on stderr, without stack frames.
    public var stderrTail: [String]
    /// Always false: an exploration that ended without a result is never what a variant should get.
    public var asExpected = false

    /// The failure as `racelab explore` prints it: the heading, what happened, stderr's last lines,
    /// the verdict.
    public func text(heading: String) -> String {
        var lines = [heading, "  \(verdictReason)"]
        if !stderrTail.isEmpty {
            lines.append("  stderr (last lines):")
            lines += stderrTail.map { "    \($0)" }
        }
        lines.append("  verdict: \(verdict.label)")
        return lines.joined(separator: "\n") + "\n"
    }
}

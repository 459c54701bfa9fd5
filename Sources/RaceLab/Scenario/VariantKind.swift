/// Whether a variant exists to show a bug or to show its fix.
///
/// The kind decides what counts as success: a buggy variant succeeds when the runner makes its bug
/// visible (*reproduced*); a fixed variant succeeds when no trial shows an anomaly (*clean*).
public enum VariantKind: String, Sendable, Codable, CaseIterable {
    /// Shows a bug: it succeeds when the runner reproduces it.
    case buggy
    /// Shows a fix: it succeeds when no trial shows an anomaly.
    case fixed
}

import RaceLab

/// The exit statuses of a RaceLab tool, as values rather than scattered `exit()` calls.
public enum ExitCode: Int32, Sendable {
    /// Every buggy variant run reproduced its bug and every fixed variant run was clean.
    case success = 0
    /// At least one variant did not get the verdict its kind calls for; the report says which.
    case unexpectedVerdict = 1
    /// Bad usage: unknown command, lesson, variant or option, or a bad value. Nothing was run.
    case usage = 2
}

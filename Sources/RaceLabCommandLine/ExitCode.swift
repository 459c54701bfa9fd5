import RaceLab

/// The exit statuses of a RaceLab tool, as values rather than scattered `exit()` calls.
public enum ExitCode: Int32, Sendable {
    /// Every buggy variant run reproduced its bug and every fixed variant run was clean.
    case success = 0
    /// At least one variant did not get the verdict its kind calls for; the report says which.
    case unexpectedVerdict = 1
    /// Bad usage: unknown command, lesson, variant or option, or a bad value. Nothing was run.
    case usage = 2
    /// No verdict for at least one variant, and no unexpected verdict otherwise: an error stopped it
    /// (a failed setup or system call, a check that threw, a report that could not be written).
    /// An error is never evidence of a bug, so it gets its own status.
    case error = 3
    /// Interrupted by `SIGINT` (Ctrl-C), the shell's 128 + 2: `run` reported the variants that finished.
    case interrupted = 130
    /// Stopped by `SIGTERM`, 128 + 15: `run` reported the variants that finished.
    case terminated = 143
}

extension ExitCode {
    /// The status of a run stopped by `signal`: the shell's 128 + signal (`interrupted`, `terminated`).
    init(interruptedBy signal: Int32) {
        self = ExitCode(rawValue: 128 + signal) ?? .error
    }
}

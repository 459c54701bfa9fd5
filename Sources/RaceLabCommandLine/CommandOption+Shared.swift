import RaceLab

/// The options several commands take, declared once so that each reads, checks and explains them
/// alike everywhere; what differs between commands (a default, what `--json` replaces) is a
/// parameter. An option of one command only is declared with that command.
extension CommandOption {
    static func variant(_ path: WritableKeyPath<Request, String?> & Sendable, default scope: String) -> Self {
        Self("--variant", .text("NAME"), path, "Only this variant (default: \(scope)).")
    }

    static func trials(_ path: WritableKeyPath<Request, Int?> & Sendable) -> Self {
        Self(
            "--trials",
            .positive("T", max: RunRequest.maximumTrials),
            path,
            "Independent trials per variant (default: the lesson's)."
        )
    }

    static func iterations(_ path: WritableKeyPath<Request, Int?> & Sendable) -> Self {
        Self(
            "--iterations",
            .positive("N", max: RunRequest.maximumIterations),
            path,
            "Operations per trial, one per concurrentPerform iteration",
            "(default: the lesson's)."
        )
    }

    /// The seed of the noise the runner injects (`power` also seeds its explorer strategies with it).
    static func noiseSeed(_ path: WritableKeyPath<Request, UInt64?> & Sendable) -> Self {
        Self(
            "--seed",
            .seed,
            path,
            "Seed for the noise at race windows, decimal or 0x hex",
            "(default: a new one, printed in the report)."
        )
    }

    static func noise(_ path: WritableKeyPath<Request, Bool> & Sendable) -> Self {
        Self("--noise", .onOff(), path) { noise in
            [
                "Inject seeded yields, spins and sleeps at the race windows the",
                "lesson code marks (default: \(noise ? "on" : "off")). With 'off' the report shows how",
                "often the bug appears on its own.",
            ]
        }
    }

    static func timeout(_ path: WritableKeyPath<Request, Double> & Sendable) -> Self {
        Self("--timeout", .seconds(), path) { seconds in
            [
                "Seconds a variant may run before it is killed and reported as",
                "timed out, 0.1 to 604800 (default: \(formatSeconds(seconds))).",
            ]
        }
    }

    static func json(_ path: WritableKeyPath<Request, Bool> & Sendable, replacing output: String) -> Self {
        Self("--json", .flag, path, "One JSON document instead of \(output).")
    }

    static func junit(_ path: WritableKeyPath<Request, String?> & Sendable) -> Self {
        Self("--junit", .outputFile, path, "Also write the result as JUnit XML (one test case per variant).")
    }

    static func html(_ path: WritableKeyPath<Request, String?> & Sendable, of what: String) -> Self {
        Self("--html", .outputFile, path, "Also write \(what) as one", "self-contained HTML page (inline CSS, no URL).")
    }

    /// Logical threads of an exploration, at most `max`.
    static func threads(_ path: WritableKeyPath<Request, Int?> & Sendable, max: Int) -> Self {
        Self(
            "--threads",
            .integer("K", in: 1...max),
            path,
            "Logical threads (default: the exploration's, usually 2)."
        )
    }

    /// Child processes at most at once (`--jobs N`), 1 to `maximumJobs`; `help` says what runs in
    /// them and how the command caps them, given the command's default.
    static func jobs(
        _ path: WritableKeyPath<Request, Int> & Sendable,
        help: @escaping @Sendable (_ default: Int) -> [String]
    ) -> Self {
        Self("--jobs", .integer("N", in: 1...maximumJobs), path, help: help)
    }

    /// The most child processes `--jobs` starts at once: the interrupt handler kills at most 64
    /// running children (`ChildProcess.runningGroups`).
    static var maximumJobs: Int { 64 }
}

import RaceLab

/// What `run` and `power` both read: the variants to run, their workload, the seed and the
/// watchdog's timeout. Each variant runs in its own process with these.
struct StressSelection: Equatable {
    /// Lesson numbers to run, in order.
    var lessons: [Int] = []
    /// Only this variant; nil for every variant of the lesson the command runs.
    var variant: String?
    var trials: Int?
    var iterations: Int?
    var seed: UInt64?
    var timeout: Double = RunRequest.defaultTimeout

    /// The seed asked for, or a new one (which the report prints, so that a run can be repeated).
    var seedOrNew: UInt64 { seed ?? UInt64.random(in: 1...UInt64(UInt32.max)) }

    /// Checks the lesson argument and `--variant` against each other (see `lessonsToRun`).
    mutating func resolveLessons(_ check: CommandValidation) throws(UsageError) {
        lessons = try check.lessonsToRun(variant: variant)
    }
}

/// What `run` was asked to do.
struct RunRequest: Equatable {
    var selection = StressSelection()
    var noise: Bool = true
    var json: Bool = false
    /// Every variant's whole block (counts, outcome table, samples), not only its verdict (`--verbose`).
    var verbose: Bool = false
    /// Also write the report as JUnit XML to this file (`--junit FILE`).
    var junit: String?
    /// Also write the report as a self-contained HTML page (`--html FILE`).
    var html: String?
    /// Variants at most at once, each in its own process, and no more than the machine has idle cores.
    var jobs: Int = 1

    /// Seconds a variant's process may run before the watchdog kills it.
    static let defaultTimeout: Double = 120

    /// Upper bounds that keep a typo (`--iterations 10000000000`) from starting a run of days.
    static let maximumTrials = 1_000_000
    static let maximumIterations = 10_000_000
}

extension RunRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "run",
        summary: "Run a lesson's variants and report what went wrong.",
        abstract: "run a lesson's variants and report what went wrong.",
        argument: .lessonOrAll,
        epilogue: """
            Every variant runs in a child process: a crash is reported as CRASHED with its signal and
            the end of its stderr, a hang as TIMED OUT, an error (a failed setup or system call) as
            ERROR, which is never counted as the bug. Exit status: 0 when every buggy variant
            reproduced its bug and every fixed variant was clean, 1 when a variant got another
            verdict, 3 when errors alone kept variants from a verdict, 2 for bad usage. Interrupted
            (SIGINT, SIGTERM), it reports the variants that finished, marked interrupted, and exits
            130 or 143.
            """,
        keepsScratchFiles: true,
        defaults: RunRequest(),
        options: [
            .variant(\.selection.variant, default: "every variant of the lesson"), .trials(\.selection.trials),
            .iterations(\.selection.iterations), .noiseSeed(\.selection.seed), .noise(\.noise),
            .timeout(\.selection.timeout),
            CommandOption(
                "--verbose",
                .flag,
                \.verbose,
                "Print every variant's counts, outcome table and samples. Without it,",
                "a variant with the expected verdict shows that verdict, its amounts",
                "per trial and the outcome that decided it."
            ),
            .json(\.json, replacing: "text (schema: the JSONReports article)"), .junit(\.junit),
            .html(\.html, of: "the report, histograms as bars,"),
            .jobs(\.jobs) { jobs in
                [
                    "Variants run at once, each in its own process (default: \(jobs)),",
                    "but no more than the cores the load average leaves idle: a loaded",
                    "machine changes how often a bug shows. The report lists them in",
                    "the same order as with 1.",
                ]
            },
        ]
    ) { request, check throws(UsageError) in
        try request.selection.resolveLessons(check)
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.run(self)
    }
}

/// What `power` was asked to do: its selection's variant is a buggy one (nil: every buggy variant).
struct PowerRequest: Equatable {
    var selection = StressSelection()
    var json: Bool = false
}

extension PowerRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "power",
        summary: "Measure how often each buggy variant shows its bug, by strategy.",
        abstract: "measure how likely each buggy variant is to show its bug.",
        argument: .lessonOrAll,
        discussion: """
            Runs every buggy variant of the lesson twice, with noise off and with noise on (each in its
            own process, same seed and workload), and, where the schedule explorer can run the variant,
            samples as many schedules with its random and pct strategies. Reports per strategy: the
            share of trials (or schedules) that exposed the bug with a 95% Wilson confidence interval,
            the first one that exposed it, and the seconds until then.
            """,
        epilogue: """
            Exit status: 0 when every measurement completed, 1 when one crashed or timed out, 3 when
            the JSON document could not be written, 2 for bad usage. Interrupted (SIGINT, SIGTERM),
            it stops at once and exits 130 or 143.
            """,
        keepsScratchFiles: true,
        defaults: PowerRequest(),
        options: [
            .variant(\.selection.variant, default: "every buggy variant"), .trials(\.selection.trials),
            .iterations(\.selection.iterations), .noiseSeed(\.selection.seed),
            .refused("--noise", because: "power measures with noise off and with noise on; it takes no --noise"),
            .timeout(\.selection.timeout), .json(\.json, replacing: "the tables"),
        ]
    ) { request, check throws(UsageError) in
        try request.selection.resolveLessons(check)
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.power(self)
    }
}

extension CommandValidation {
    /// The lessons `run` and `power` run: the one named, whose `variant` must exist, or every
    /// lesson for 'all', which takes no variant.
    func lessonsToRun(variant: String?) throws(UsageError) -> [Int] {
        if isAll {
            if let variant { throw error("--variant \(quoted(variant)) needs a single lesson, not 'all'") }
            return lessons.map(\.number)
        }
        let lesson = try lesson()
        if let variant { try checkVariant(variant, of: lesson) }
        return [lesson.number]
    }
}

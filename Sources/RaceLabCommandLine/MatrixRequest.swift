import RaceLab

/// What `matrix` was asked to do: which variants to put through the runner, ThreadSanitizer and the
/// Swift 6 compiler, and where the probes, expectations and logs are.
struct MatrixRequest: Equatable {
    /// Lesson numbers, in order.
    var lessons: [Int] = []
    /// Add the calibration rows (TSan on correct code); on when every lesson runs.
    var calibration: Bool = false
    /// At most this many trials per variant (default: the lesson's).
    var trials: Int?
    /// Seconds of trials per variant: no new trial starts after this (one always runs).
    var budget: Double = MatrixRequest.defaultBudget
    var seed: UInt64?
    var noise: Bool = true
    var timeout: Double = MatrixRequest.defaultTimeout
    /// An expectations file replacing the expectations the variants declare; nil to use those.
    var expectations: String?
    var probes: String = MatrixRequest.defaultProbes
    /// Where TSan writes its logs; nil means a folder in the temporary directory.
    var logs: String?
    /// The build of the tool that runs the variants; nil means this one.
    var executable: String?
    var json: Bool = false
    var junit: String?

    /// Seconds of trials per variant under TSan: most variants finish all their trials within it; the
    /// slowest lessons (files on disk) run one or two.
    static let defaultBudget: Double = 20
    /// Longer than `run`'s: TSan makes a variant 5-100 times slower.
    static let defaultTimeout: Double = 300
    /// The folder of lesson folders: probes are `Lessons/<NN-slug>/CompilerProbes/<variant>.swift`.
    static let defaultProbes = "Lessons"
}

extension MatrixRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "matrix",
        summary: "Which tool catches which bug: the runner, ThreadSanitizer, Swift 6.",
        abstract: "which tool catches which bug.",
        argument: .lesson(
            all: true,
            optional: true,
            "A lesson number or slug; default 'all' (every lesson, plus",
            "calibration rows: TSan on correct code)."
        ),
        discussion: """
            One row per variant: what the stress runner measured, how many distinct races
            ThreadSanitizer reported, and whether the Swift 6 compiler (language mode 6, complete
            concurrency checking) accepts the variant's pattern as developers write it. Each variant
            runs in its own process with TSAN_OPTIONS log_path=<logs>/<lesson>.<variant>, so every
            report is attributed to the variant (and worker processes) that produced it. Build with
            'make tsan', which runs this command from a ThreadSanitizer build; from another build the
            TSan column says 'not measured'.
            """,
        epilogue: """
            Exit status: 0 when every row is as expected (buggy variants reproduced, fixed ones clean
            and silent under TSan, TSan and compiler outcomes as the variants declare); 1
            otherwise, naming each variant and what differs; 3 when a report (--json, --junit)
            could not be written; 2 for bad usage. Interrupted (SIGINT, SIGTERM), it stops at once
            and exits 130 or 143.
            """,
        keepsScratchFiles: true,
        defaults: MatrixRequest(),
        options: [
            .trials(\.trials),
            CommandOption("--budget", .seconds(), \.budget) { budget in
                [
                    "No new trial starts after S seconds per variant (0.1 to 604800);",
                    "one always runs (default: \(formatSeconds(budget))). The matrix shows the trials run.",
                ]
            },
            .noiseSeed(\.seed), .noise(\.noise), .timeout(\.timeout),
            CommandOption(
                "--expectations",
                .text("FILE"),
                \.expectations,
                "Expected TSan and compiler outcome per variant, replacing",
                "those the variants declare for this OS (default: declared)."
            ),
            CommandOption("--probes", .text("DIR"), \.probes) { probes in
                ["Compiler probes, DIR/<NN-slug>/CompilerProbes/<variant>.swift", "(default: \(probes))."]
            },
            CommandOption("--logs", .text("DIR"), \.logs, "Where TSan writes its logs (default: a temporary folder)."),
            CommandOption(
                "--executable",
                .text("PATH"),
                \.executable,
                "Run the variants with this build of the tool (default: this one)."
            ),
            .json(\.json, replacing: "the table"), .junit(\.junit),
        ]
    ) { request, check throws(UsageError) in
        if check.isAll {
            request.lessons = check.lessons.map(\.number)
            request.calibration = true
        } else {
            request.lessons = [try check.lesson().number]
        }
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.matrix(self)
    }
}

import RaceLab

/// One option as help shows it: in a command's usage line and in its OPTIONS section. Each option
/// is described here once, for every command that takes it (`HelpText.options(_:)` says which);
/// what differs between commands (a default, what `--json` replaces) is a parameter.
struct OptionHelp {
    /// The option and its value's placeholder in the OPTIONS section, e.g. `--trials T`.
    let name: String
    /// The same in the usage line, where it may spell out its values: `--strategy dfs|pct|random`.
    let usage: String
    /// The help, one string per line; lines are broken by hand to stay within 90 columns.
    let lines: [String]

    init(_ name: String, usage: String? = nil, _ lines: String...) {
        self.name = name
        self.usage = usage ?? name
        self.lines = lines
    }

    /// The option's lines in an OPTIONS section: the name in a column of its own, the help
    /// beside it (below it, when the name is too long for the column).
    var section: String {
        let column = 19
        let indent = String(repeating: " ", count: column + 4)
        var text = lines.enumerated().map { index, line in index == 0 ? line : indent + line }
        if name.count > column {
            text.insert("  " + name, at: 0)
            text[1] = indent + text[1]
        } else {
            text[0] = "  " + name.padding(toLength: column, withPad: " ", startingAt: 0) + "  " + text[0]
        }
        return text.joined(separator: "\n")
    }
}

extension OptionHelp {
    static let help = OptionHelp("-h, --help", "Show this help.")
    static let verbose = OptionHelp(
        "--verbose",
        "Also print the time per schedule and how many distinct traces",
        "(schedules up to the order of independent steps) were covered."
    )

    static func json(replacing output: String) -> OptionHelp {
        OptionHelp("--json", "One JSON document instead of \(output).")
    }

    // MARK: run, power and matrix

    static func variant(default scope: String) -> OptionHelp {
        OptionHelp("--variant NAME", "Only this variant (default: \(scope)).")
    }

    static let trials = OptionHelp("--trials T", "Independent trials per variant (default: the lesson's).")

    static let iterations = OptionHelp(
        "--iterations N",
        "Operations per trial, one per concurrentPerform iteration",
        "(default: the lesson's)."
    )

    /// The seed of the noise the runner injects (`power` also seeds its explorer strategies with it).
    static let noiseSeed = OptionHelp(
        "--seed S",
        "Seed for the noise at race windows, decimal or 0x hex",
        "(default: a new one, printed in the report)."
    )

    static let noise = OptionHelp(
        "--noise on|off",
        "Inject seeded yields, spins and sleeps at the race windows the",
        "lesson code marks (default: on). With 'off' the report shows how",
        "often the bug appears on its own."
    )

    static func timeout(default seconds: Double) -> OptionHelp {
        OptionHelp(
            "--timeout S",
            "Seconds a variant may run before it is killed and reported as",
            "timed out, 0.1 to 604800 (default: \(formatSeconds(seconds)))."
        )
    }

    static let junit = OptionHelp("--junit FILE", "Also write the result as JUnit XML (one test case per variant).")

    // MARK: matrix

    static let budget = OptionHelp(
        "--budget S",
        "No new trial starts after S seconds per variant (0.1 to 604800);",
        "one always runs (default: \(formatSeconds(MatrixRequest.defaultBudget))). The matrix shows the trials run."
    )

    static let expectations = OptionHelp(
        "--expectations FILE",
        "Expected TSan and compiler outcome per variant, replacing",
        "those the variants declare for this OS (default: declared)."
    )

    static let probes = OptionHelp(
        "--probes DIR",
        "Compiler probes, DIR/<NN-slug>/CompilerProbes/<variant>.swift",
        "(default: \(MatrixRequest.defaultProbes))."
    )

    static let logs = OptionHelp("--logs DIR", "Where TSan writes its logs (default: a temporary folder).")

    static let executable = OptionHelp(
        "--executable PATH",
        "Run the variants with this build of the tool (default: this one)."
    )

    // MARK: explore

    static let strategy = OptionHelp(
        "--strategy S",
        usage: "--strategy dfs|pct|random",
        "dfs: every schedule within the preemption bound (default);",
        "pct: Probabilistic Concurrency Testing; random: a random",
        "thread at every point."
    )

    static let reduction = OptionHelp(
        "--reduction R",
        usage: "--reduction auto|none|dpor|states",
        "dfs: none runs every schedule; states skips schedules",
        "that reach a state already searched, dpor those that only",
        "reorder steps touching different objects. auto (default):",
        "states where the exploration declares what its steps",
        "touch, else none."
    )

    static let threads = OptionHelp("--threads K", "Logical threads (default: the exploration's, usually 2).")

    static let preemptions = OptionHelp(
        "--preemptions P",
        "dfs: at most P preemptions; pct: P priority change points",
        "(bug depth d = P+1). Default 2."
    )

    static let schedules = OptionHelp(
        "--schedules M",
        "At most M schedules (default 100000 for dfs, 1000 otherwise)."
    )

    /// The seed of the explorer's random choices, not of any noise.
    static let explorerSeed = OptionHelp("--seed S", "Seed for pct and random, decimal or 0x hex (default 0).")

    static let steps = OptionHelp(
        "--steps N",
        "Step bound: a schedule still running after N steps",
        "is unfinished, INCONCLUSIVE, never a failure. Default:",
        "10 times the first finished schedule's steps, >= 1000."
    )

    static func html(of what: String) -> OptionHelp {
        OptionHelp("--html FILE", "Also write \(what) as one", "self-contained HTML page (inline CSS, no URL).")
    }

    static let trace = OptionHelp(
        "--trace FILE",
        "Also write the failing schedules as Chrome Trace Event JSON",
        "(opens in Perfetto): one track per thread, one slice per step."
    )

    static let stall = OptionHelp(
        "--stall S",
        "Seconds a thread may run without reaching a scheduling point",
        "before it is reported stuck, 0.1 to 604800 (default: \(formatSeconds(ExplorationOptions().stallTimeout)))."
    )

    static let marks = OptionHelp(
        "--marks M",
        usage: "--marks on|off",
        "off: ignore Race.window/Race.step; async code is switched",
        "between its jobs (each await, task start, sleep), one at a",
        "time. Default on."
    )

    static let replay = OptionHelp(
        "--replay SCHEDULE",
        "Run exactly this schedule (a replay string from a report,",
        "e.g. 2:0.1.0.1@3fa9c1: its program's fingerprint after @).",
        "One that names another program or does not fit is refused."
    )
}

import RaceLab

/// What `explore` was asked to do.
struct ExploreRequest: Equatable {
    /// The lessons to explore, in order: the one named, or every lesson with an explorable variant
    /// ('all').
    var lessons: [Int] = []
    /// Whether the lessons are 'all' (then `--json` prints the lessons' document, however many).
    var all = false
    /// Only this variant; nil for every variant of the lesson that has an exploration.
    var variant: String?
    /// The search: its strategy, bounds, stall limit and marks, as the options set them; the
    /// explorer's own defaults otherwise.
    var options = ExplorationOptions()
    /// Run exactly this schedule instead of searching.
    var replay: Schedule?
    var json: Bool = false
    /// Also print each search's internals: settings, time per schedule, traces and states covered (`--verbose`).
    var verbose = false
    /// Also draw the failing schedules as a self-contained HTML page (`--html FILE`).
    var html: String?
    /// Also write them as Chrome Trace Event JSON, for Perfetto (`--trace FILE`).
    var trace: String?
    /// Explore only this shard of the search and write its result (`--shard I/N --output FILE`).
    var shard: Shard?
    var output: String?

    /// Shard `index` of `count`, both from 1.
    struct Shard: Equatable, Sendable {
        var index: Int
        var count: Int
    }

    init(lessons: [Int] = []) {
        self.lessons = lessons
    }

    init(lesson: Int) {
        self.init(lessons: [lesson])
    }

    /// Upper bounds that keep a typo from starting an exploration of days.
    static let maximumThreads = 16
    static let maximumPreemptions = 100
    static let maximumSchedules = 10_000_000
    static let maximumSteps = 10_000_000
    static let maximumJobs = 256
    /// The most shards a search is split into: more than a CI matrix would run at once.
    static let maximumShards = 64
}

extension ExploreRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "explore",
        summary: "Search thread schedules for one that breaks a variant; replay it.",
        abstract: "search thread schedules for one that breaks a variant, and replay it.",
        argument: .lesson(
            all: true,
            "A lesson number or slug, or 'all' (every lesson with an",
            "explorable variant)."
        ),
        discussion: """
            Runs the variant's real code on a few logical threads, one at a time under a controlled
            scheduler. Threads switch only at scheduling points: the race windows the lesson marks
            (Race.window), the synchronization steps it marks (Race.step), and the operations of
            RaceLock, RaceRecursiveLock, RaceQueue (sync, async, barriers), RaceTask, RaceLockFile
            (file locks, with the kernel's owners), @RaceShared variables (each read and write)
            and Race.handOff. Work items,
            callbacks and tasks the code starts are threads of their own, numbered after the
            program's. With --marks off the marks are ignored, and async code is switched between
            its Swift concurrency jobs instead: it needs no mark at all. A failing schedule is
            printed as a timeline, one column per thread, with a replay string; a deadlock with
            where each thread waits. A thread that reaches no scheduling point within the stall
            limit is reported stuck, with its last point, what it was seen doing, the likely cause
            and the fix; an exploration in which threads never interleave warns that nothing was
            explored, and why. Every variant is explored in a child process: a thread that calls
            exit or traps, or an invariant that traps, is reported as CRASHED for that variant, and
            what the code prints stays out of the report. An option the strategy does not use
            (--reduction or --jobs for pct or random, --seed for dfs, --preemptions for random) is
            refused.

            Verdicts: FOUND or NOT FOUND (buggy), CLEAN or FAILED (fixed), REPRODUCED or NOT
            REPRODUCED (a replay). A clean verdict says what it covered: the threads, the
            preemption bound, the reduction, and how much code ran as one step (a data race inside
            a step is ThreadSanitizer's to find). A fixed variant whose search was cut by the
            schedule limit is CLEAN, NOT EXHAUSTIVE: no proof. One whose threads were never
            interleaved (one schedule, or threads that ran from their start to their end as one
            step) is NOT INTERLEAVED: no proof, and the warning names the threads and what would
            give them scheduling points. An error thrown by a thread is ERROR (not the bug, unless
            the exploration declares it its failure); a schedule that does not finish within the
            step bound, or a stuck thread, is INCONCLUSIVE.
            """,
        epilogue: """
            Exit status: 0 when every buggy variant has a failing schedule (or the replay fails)
            and every fixed variant is CLEAN; 1 when a variant got the other verdict (a crash
            included); 3 when a variant got none (ERROR, INCONCLUSIVE, CLEAN, NOT EXHAUSTIVE, NOT
            INTERLEAVED), could not be set up, or a file could not be written, and none got the
            other; 2 for bad usage, and for a replay string refused because it does not fit the
            variant. With --shard: 0 when its result was written, 3 when not. Interrupted (SIGINT,
            SIGTERM), it stops the variant being explored, which gets no verdict, and exits 130 or
            143. A whole lesson's exploration ends with one line: PASS, FAIL, ERROR (errors alone)
            or NO VERDICT, the exit status, and the variants that decided it; a variant that cannot
            be explored is not counted.
            """,
        keepsScratchFiles: true,
        defaults: ExploreRequest(),
        options: [
            .variant(\.variant, default: "every explorable variant"),
            CommandOption(
                "--strategy",
                .choice("S"),
                \.options.strategy,
                "dfs: every schedule within the preemption bound (default);",
                "pct: Probabilistic Concurrency Testing; random: a random",
                "thread at every point."
            ),
            CommandOption(
                "--reduction",
                .choice("R"),
                \.options.reduction,
                "dfs: none runs every schedule; states skips schedules",
                "that reach a state already searched, dpor those that only",
                "reorder steps touching different objects. auto (default):",
                "states where the exploration declares what its steps",
                "touch, else none."
            ),
            .threads(\.options.threads, max: maximumThreads),
            CommandOption("--preemptions", .integer("P", in: 0...maximumPreemptions), \.options.preemptions) {
                preemptions in
                [
                    "dfs: at most P preemptions; pct: P priority change points",
                    "(bug depth d = P+1). Default \(preemptions).",
                ]
            },
            CommandOption("--schedules", .integer("M", in: 1...maximumSchedules), \.options.schedules) { _ in
                ["At most M schedules (default \(scheduleLimits))."]
            },
            // The seed of the explorer's random choices, not of any noise.
            CommandOption("--seed", .seed, \.options.seed) { seed in
                ["Seed for pct and random, decimal or 0x hex (default \(seed))."]
            },
            CommandOption(
                "--steps",
                .integer("N", in: 1...maximumSteps),
                \.options.stepBound,
                "Step bound: a schedule still running after N steps",
                "is unfinished, INCONCLUSIVE, never a failure. Default:",
                "10 times the first finished schedule's steps, >= 1000."
            ),
            CommandOption(
                "--jobs",
                .integer("N", in: 1...maximumJobs),
                \.options.jobs,
                "dfs with none or dpor: search in N processes at once, with",
                "the report of one (the same counts and first failure).",
                "states and async code: one. Default: the active cores."
            ),
            CommandOption(
                "--shard",
                OptionValue("I/N") { reader, option throws(UsageError) in try reader.shard(option, max: maximumShards)
                },
                \.shard,
                "dfs with none or dpor, one --variant: explore only shard I of",
                "N (1 <= I <= N <= \(maximumShards)) and write its result to --output;",
                "'merge' makes the report of shards 1...N."
            ),
            CommandOption("--output", .outputFile, \.output, "The file a --shard writes its result to."),
            CommandOption("--stall", .seconds(), \.options.stallTimeout) { stall in
                [
                    "Seconds a thread may run without reaching a scheduling point",
                    "before it is reported stuck, 0.1 to 604800 (default: \(formatSeconds(stall))).",
                ]
            },
            CommandOption("--marks", .onOff("M"), \.options.marks) { marks in
                [
                    "off: ignore Race.window/Race.step; async code is switched",
                    "between its jobs (each await, task start, sleep), one at a",
                    "time. Default \(marks ? "on" : "off").",
                ]
            },
            CommandOption(
                "--replay",
                OptionValue("SCHEDULE") { reader, option throws(UsageError) in
                    try reader.schedule(option, maximumThreads: maximumThreads)
                },
                \.replay,
                "Run exactly this schedule (a replay string from a report,",
                "e.g. 2:0.1.0.1@3fa9c1: its program's fingerprint after @).",
                "One that names another program or does not fit is refused."
            ),
            CommandOption(
                "--verbose",
                .flag,
                \.verbose,
                "Also print the search's internals: the strategy and its bounds,",
                "the time per schedule, the distinct traces (schedules up to the",
                "order of independent steps) and states covered, what a step was."
            ),
            .json(\.json, replacing: "text"), .html(\.html, of: "the failing schedules"),
            CommandOption(
                "--trace",
                .outputFile,
                \.trace,
                "Also write the failing schedules as Chrome Trace Event JSON",
                "(opens in Perfetto): one track per thread, one slice per step."
            ),
        ],
        validate: validate
    )

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.explore(self)
    }

    /// `100000 for dfs, 1000 otherwise`: the schedule limit of each strategy when `--schedules` is
    /// not given (`ExplorationOptions.scheduleLimit`), the default strategy's first.
    private static var scheduleLimits: String {
        let first = ExplorationOptions()
        let others = ExplorationOptions.Strategy.allCases.filter { $0 != first.strategy }
            .map { (strategy: $0, limit: ExplorationOptions(strategy: $0).scheduleLimit) }
        let limits = ["\(first.scheduleLimit) for \(first.strategy.rawValue)"]
        if let limit = others.first?.limit, others.allSatisfy({ $0.limit == limit }) {
            return (limits + ["\(limit) otherwise"]).joined(separator: ", ")
        }
        return (limits + others.map { "\($0.limit) for \($0.strategy.rawValue)" }).joined(separator: ", ")
    }

    /// Completes the request with its lessons (and the variant a replay runs), and refuses options
    /// that would be ignored, silently: search options with a replay, a strategy's options with
    /// another strategy, single-lesson options with 'all'.
    private static func validate(_ request: inout ExploreRequest, _ check: CommandValidation) throws(UsageError) {
        // A replay refuses every search option below, with its own reason.
        if request.replay == nil { try refuseIgnoredByStrategy(request.options.strategy, check) }
        if check.isAll {
            for option in ["--variant", "--replay", "--html", "--trace", "--shard", "--output"]
            where check.wasGiven(option) {
                throw check.error("\(option) needs a single lesson, not 'all'")
            }
            request.lessons = check.lessons.filter { $0.variants.contains { $0.exploration != nil } }.map(\.number)
            if request.lessons.isEmpty { throw check.error("no lesson has an explorable variant yet") }
            request.all = true
            return
        }
        let lesson = try check.lesson()
        request.lessons = [lesson.number]
        let explorable = try check.explorableVariants(of: lesson, checking: request.variant)
        try validateShard(request, lesson: lesson, check)
        guard let replay = request.replay else { return }
        // A replay runs the one schedule it names: search options would be ignored, silently.
        for option in ["--strategy", "--reduction", "--schedules", "--seed", "--preemptions", "--jobs"]
        where check.wasGiven(option) {
            throw check.error("--replay runs one given schedule; \(option) is for a search and cannot go with it")
        }
        if let threads = request.options.threads, threads != replay.threads {
            throw check.error(
                "--replay names \(replay.threads) threads but --threads is \(threads); give one of the two"
            )
        }
        if let stepBound = request.options.stepBound, replay.choices.count > stepBound {
            throw check.error(
                "--replay names \(replay.choices.count) choices, more than the \(stepBound) steps "
                    + "an execution may take (--steps)"
            )
        }
        if request.variant == nil {
            guard explorable.count == 1 else {
                throw check.error("--replay needs --variant (one of: \(explorable.joined(separator: ", ")))")
            }
            request.variant = explorable[0]
        }
    }

    /// Refuses a `--shard` that cannot shard, or that would ignore an option, silently: a shard is
    /// one variant's dfs search with reduction none or dpor of a synchronous program, written to
    /// `--output`, in one process.
    private static func validateShard(
        _ request: ExploreRequest,
        lesson: Lesson,
        _ check: CommandValidation
    ) throws(UsageError) {
        guard request.shard != nil else {
            if check.wasGiven("--output") {
                throw check.error("--output is for --shard, which writes its result there")
            }
            return
        }
        guard check.wasGiven("--output") else { throw check.error("--shard needs --output FILE for its result") }
        for option in ["--replay", "--json", "--html", "--trace", "--verbose", "--jobs"] where check.wasGiven(option) {
            throw check.error(
                "--shard writes a result file for 'merge' and explores in one process; \(option) cannot go with it"
            )
        }
        guard request.options.strategy.searchesExhaustively else {
            throw check.error(
                "--shard splits a dfs search; --strategy \(request.options.strategy.rawValue) has no tree to split"
            )
        }
        guard let name = request.variant, let exploration = lesson.variant(named: name)?.exploration else {
            throw check.error("--shard needs --variant: a shard is part of one variant's search")
        }
        if exploration.isAsync {
            throw check.error("--shard splits synchronous programs only; variant \(name) is async")
        }
        let reduction = request.options.reduction
        if reduction == .states {
            throw check.error("--shard splits a search with reduction none or dpor, not states")
        }
        if reduction == .automatic && exploration.footprintsComplete {
            throw check.error(
                "--shard splits a search with reduction none or dpor; variant \(name) would be searched with "
                    + "states: give --reduction none or dpor"
            )
        }
    }

    /// Refuses an explore option that `strategy` does not use: it would be ignored, silently.
    private static func refuseIgnoredByStrategy(
        _ strategy: ExplorationOptions.Strategy,
        _ check: CommandValidation
    ) throws(UsageError) {
        let unused: [(option: String, usedBy: [ExplorationOptions.Strategy])] = [
            ("--reduction", [.dfs]),
            ("--seed", [.pct, .random]),
            ("--preemptions", [.dfs, .pct]),
            ("--jobs", [.dfs]),
        ]
        for (option, usedBy) in unused where check.wasGiven(option) && !usedBy.contains(strategy) {
            let users = usedBy.map(\.rawValue).joined(separator: " and ")
            throw check.error(
                "\(option) is for the \(users) strateg\(usedBy.count == 1 ? "y" : "ies"); "
                    + "--strategy \(strategy.rawValue) would ignore it"
            )
        }
    }
}

/// What `play` was asked to do.
struct PlayRequest: Equatable {
    var lesson: Int = 0
    /// The variant to play; the lesson's main bug (`Lesson.mainBug`) unless `--variant` names one.
    var variant: String?
    /// Logical threads; nil for the exploration's default.
    var threads: Int?

    /// A person chooses every step: more threads than this is no game.
    static let maximumThreads = 8
}

extension PlayRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "play",
        summary: "Be the scheduler: choose each step and try to break a variant.",
        abstract: "be the scheduler of a variant's threads, and try to break it.",
        argument: .lesson(all: false, "A lesson number or slug."),
        discussion: """
            Runs the variant's real code on a few logical threads, as explore does, but you choose
            which thread runs at each scheduling point. Before each choice it shows every thread
            with the operation it is about to perform, the steps so far as a timeline and, where
            the lesson provides it, the shared state. At the end: whether the invariant broke, the
            whole timeline and its replay string (explore --replay accepts it). For a fixed variant
            it also says how many schedules the explorer checked without breaking it.

            Type a thread number to run that thread to its next scheduling point, or:
              u  undo the last step      h  hint: the next step of a shortest failing schedule
              r  restart                 q  quit                 ?  this list
            Input is plain lines, so a pipe can play too; colours only on a terminal, never with
            NO_COLOR set.
            """,
        epilogue: """
            Exit status: 0 when the game ended (by q or end of input); 3 when the variant could not
            be set up; 2 for bad usage. Ctrl-C (SIGINT) or SIGTERM ends it at once: the shell shows
            130 or 143.
            """,
        defaults: PlayRequest(),
        options: [
            .variant(\.variant, default: "the lesson's main buggy one"),
            .threads(\.threads, max: maximumThreads),
        ]
    ) { request, check throws(UsageError) in
        let lesson = try check.lesson()
        let explorable = try check.explorableVariants(of: lesson, checking: request.variant)
        request.lesson = lesson.number
        request.variant =
            request.variant ?? lesson.mainBug?.name ?? explorable[0]
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.play(self)
    }
}

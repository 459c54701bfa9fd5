import RaceLab

/// What `explore` was asked to do.
struct ExploreRequest: Equatable {
    /// The lessons to explore, in order: the one named, or every lesson with an explorable variant
    /// ('all').
    var lessons: [Int]
    /// Whether the lessons are 'all' (then `--json` prints the lessons' document, however many).
    var all = false
    /// Only this variant; nil for every variant of the lesson that has an exploration.
    var variant: String?
    var strategy: ExplorationOptions.Strategy = .dfs
    var reduction: ExplorationOptions.Reduction = .automatic
    var threads: Int?
    var preemptions: Int = 2
    var schedules: Int?
    var seed: UInt64 = 0
    /// Run exactly this schedule instead of searching.
    var replay: Schedule?
    /// `--steps`; nil to measure the bound from the program (`ExplorationOptions.stepBound`).
    var stepBound: Int?
    /// Seconds a thread may run between two scheduling points before it is reported stuck.
    var stall: Double = ExplorationOptions().stallTimeout
    /// Whether `Race.window`/`Race.step` marks are scheduling points (`--marks on|off`).
    var marks = true
    var json: Bool = false
    /// Also print each search's time per schedule and its count of distinct traces (`--verbose`).
    var verbose = false
    /// Also draw the failing schedules as a self-contained HTML page (`--html FILE`).
    var html: String?
    /// Also write them as Chrome Trace Event JSON, for Perfetto (`--trace FILE`).
    var trace: String?

    init(lessons: [Int]) {
        self.lessons = lessons
    }

    init(lesson: Int) {
        self.init(lessons: [lesson])
    }

    var options: ExplorationOptions {
        ExplorationOptions(
            strategy: strategy,
            reduction: reduction,
            threads: threads,
            preemptions: preemptions,
            schedules: schedules,
            seed: seed,
            stepBound: stepBound,
            stallTimeout: stall,
            marks: marks
        )
    }

    /// Upper bounds that keep a typo from starting an exploration of days.
    static let maximumThreads = 16
    static let maximumPreemptions = 100
    static let maximumSchedules = 10_000_000
    static let maximumSteps = 10_000_000
}

/// What `play` was asked to do.
struct PlayRequest: Equatable {
    var lesson: Int
    var variant: String
    /// Logical threads; nil for the exploration's default.
    var threads: Int?

    /// A person chooses every step: more threads than this is no game.
    static let maximumThreads = 8
}

/// What an exploration found.
public struct ExplorationReport: Sendable, Equatable, Codable {
    /// The strategy that searched.
    public let strategy: ExplorationOptions.Strategy
    /// Logical threads the program started with.
    public let threads: Int
    /// dfs: the preemption bound; pct: the priority change points.
    public let preemptions: Int
    /// The seed pct and random used (dfs ignores it).
    public let seed: UInt64
    /// dfs: the partial-order reduction used; nil for pct and random.
    public var reduction: ExplorationOptions.Reduction? = nil
    /// Executions run.
    public let schedules: Int
    /// dfs only: how many distinct behaviours the schedules covered, counting schedules that
    /// differ only in the order of independent steps as one (Mazurkiewicz traces, see
    /// `TraceKey`). Equal to `schedules` when no two runs were equivalent.
    public var tracesCovered: Int? = nil
    /// dfs with `.states` only: the distinct states (traces of schedule prefixes) decided at.
    public var statesSearched: Int? = nil
    /// dfs with `.states` only: executions that, from some decision on, could only repeat states
    /// already searched (every choice there was skipped); they ran to the end and were checked.
    public var redundantSchedules: Int? = nil
    /// dfs only: true when every schedule within the bound ran (the schedule limit was not hit).
    public let exhaustive: Bool
    /// Set when the search stopped on purpose after a failing schedule
    /// (`ExplorationOptions.schedulesAfterFailure`): how many schedules it ran after the first
    /// failing one. Not exhaustive then, and the failure kept is the shortest of those run.
    public var stoppedAfterFailure: Int? = nil
    /// Executions that failed (broken invariant, deadlock; an error where the exploration declares
    /// errors its failure).
    public let failingSchedules: Int
    /// The shortest failing execution found (the first among equally short ones, or the first the
    /// exploration prefers: `Exploration.preferringFailures(where:)`).
    public let failure: ExecutionResult?
    /// The number (1-based) of the first execution that failed, and the seconds until it ended:
    /// how fast this strategy finds the bug (`racelab power`).
    public var firstFailingSchedule: Int? = nil
    /// Seconds from the start of the search to the end of the first failing execution; nil when none
    /// failed, and in a merged report (each shard's clock started on its own machine).
    public var secondsToFirstFailure: Double? = nil
    /// Wall time of the whole search, in seconds; in a merged report, the sum of its shards' wall times.
    public internal(set) var elapsedSeconds: Double
    /// Set when the report merges the results of this many shards (`racelab merge`).
    public internal(set) var mergedShards: Int? = nil
    /// Where the time went, by phase (`ExplorationTiming`).
    public var timing = ExplorationTiming()
    /// pct only: the algorithm's lower bound 1/(n·k^(d−1)) on the chance per execution, and k.
    public var pctGuarantee: Double? = nil
    /// pct only: k, the most steps an execution took, which the guarantee's bound uses.
    public var pctSteps: Int? = nil
    /// pct only: n, the most logical threads an execution had (the program's and those it started).
    public var pctThreads: Int? = nil
    /// Something that makes the figures less than they seem (nondeterminism, a stuck thread, threads
    /// that were never interleaved), one warning a line.
    public let warning: String?
    /// Set when exploration stopped because a thread got stuck outside the explorer's control: the
    /// figures are then inconclusive, whatever they say.
    public let abandoned: String?
    /// Set when the search interleaved less than the program: one schedule only, or threads that
    /// ran from their start to their end as one step, in no execution while another thread was
    /// between two points (a thread whose one step ran amid another's steps, such as a callback's,
    /// was interleaved). It names the threads
    /// and what would give them scheduling points in this exploration; the same text opens `warning`.
    /// A search with it set proves nothing about the threads it names: `expectNoFailingSchedule`
    /// fails on it.
    public var notInterleaved: String? = nil
    /// With `abandoned`: why the thread got stuck, likely, and what to change.
    public var stall: StallDiagnosis? = nil

    /// Executions in which a thread threw an error that is not the exploration's failure: no
    /// evidence either way (see `Exploration.treatingErrorsAsFailures()`).
    public var errorSchedules = 0
    /// The first of them.
    public var firstError: ExecutionResult? = nil
    /// Executions that did not finish within the step bound: inconclusive, not failing.
    public var unfinishedSchedules = 0
    /// The first of them.
    public var firstUnfinished: ExecutionResult? = nil
    /// The step bound the executions ran with (the one given, or the one measured).
    public var stepBound = 0
    /// Whether the step bound was given (`ExplorationOptions.stepBound`) rather than measured.
    public var stepBoundGiven = false
    /// Whether `Race.window` and `Race.step` were scheduling points.
    public var marks = true
    /// Whether the exploration's threads ran async bodies.
    public var isAsync = false
    /// Whether Swift concurrency jobs were scheduling points: each job ran as one step.
    public var jobsWereSteps = false
    /// Whether an error thrown by a thread counted as a failure.
    public var errorsAreFailures = false

    /// Failing executions per execution run.
    public var hitRate: Double {
        schedules == 0 ? 0 : Double(failingSchedules) / Double(schedules)
    }
}

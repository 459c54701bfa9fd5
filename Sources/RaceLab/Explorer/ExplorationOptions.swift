import Foundation

/// How the explorer searches: the strategy and its bounds.
public struct ExplorationOptions: Sendable, Codable, Equatable {
    /// Which schedules the explorer runs: all within a bound (`dfs`), or a seeded sample (`pct`, `random`).
    /// A sample that finds no failure proves nothing; only an exhaustive `dfs` search gives CLEAN.
    public enum Strategy: String, Sendable, CaseIterable, Codable {
        /// Every schedule within the preemption bound, exhaustively.
        case dfs
        /// Probabilistic Concurrency Testing: random priorities and `preemptions` change points.
        case pct
        /// A uniformly random thread at every scheduling point.
        case random
    }

    /// How dfs avoids running schedules that only reorder independent steps.
    ///
    /// Every reduction trusts the footprints: that a step, from its scheduling point to the next,
    /// touches only what its point declares and the primitives it uses (see `Footprint`). Code that
    /// shares state otherwise between two points (a plain variable, a lock the explorer does not see,
    /// an `Atomic`) breaks that, and a reduction can then skip the very order that fails.
    public enum Reduction: String, Sendable, CaseIterable, Codable {
        /// The strongest sound for the exploration: `.states` when it declares complete footprints
        /// (`Exploration.declaringCompleteFootprints()`), otherwise `.none`. The report names the
        /// one used.
        case automatic = "auto"
        /// Every schedule within the preemption bound.
        case none
        /// Dynamic partial-order reduction, bounded as Coons et al. (2013) describe, without sleep
        /// sets: only the orders of steps that touch a common object and at least one writes it
        /// (see `Race.window(_:on:)`, `Race.window(_:reading:)`). It may run a trace more than once
        /// (see `DPORReduction`).
        case dpor
        /// Each state once: a choice is skipped where it leads to a trace (the same steps, up to
        /// reordering steps that commute) already searched from, with no fewer preemptions left
        /// (see `StateCachingReduction`). With complete footprints it covers every trace `none`
        /// covers, by construction.
        case states
    }

    /// The search strategy (default `.dfs`).
    public var strategy: Strategy
    /// dfs only: the reduction (default `.automatic`); pct and random ignore it.
    public var reduction: Reduction
    /// Logical threads; nil for the exploration's default.
    public var threads: Int?
    /// dfs: the preemption bound. pct: the number of priority change points (d − 1).
    public var preemptions: Int
    /// The most schedules to run; nil for 100,000 (dfs) or 1,000 (pct, random).
    public var schedules: Int?
    /// Seed for pct and random.
    public var seed: UInt64
    /// Steps after which an execution is given up as unfinished (a livelock, or a longer program):
    /// inconclusive, never a failure. Nil (the default) measures it: ten times the steps of the
    /// first execution that finishes, at least 1,000 (10,000 until one has finished).
    public var stepBound: Int?
    /// Seconds a thread may run between two scheduling points before it is reported stuck.
    public var stallTimeout: Double
    /// Whether `Race.window` and `Race.step` are scheduling points. Either way the explorer uses the
    /// points it sees by itself: its primitives' operations, each thread's start (when a thread would
    /// otherwise run as set-up to its end) and, in async explorations, every Swift concurrency job
    /// (`schedulesJobs`). Marks add points inside a job or between two primitives; false ignores
    /// them.
    public var marks: Bool
    /// Whether an async exploration (`Exploration.init(asyncThread:)`) switches at every Swift
    /// concurrency job: a task's start, each resumption after an `await`, an actor's queue, a
    /// sleep's wake-up (see `AsyncJobs`). True by default: actor code needs no mark. False runs each
    /// thread's task on the explorer's executor with marks and RaceLab's primitives as its only
    /// points: far fewer schedules, for code that marks its windows and awaits other threads
    /// through `RaceTask`.
    public var schedulesJobs: Bool
    /// How many more schedules to run after the first failing one, looking for a shorter failure
    /// (the report keeps the shortest): 0 stops at the first; nil (the default) searches to the end.
    /// `expectFailingSchedule` sets it when it is nil, since one failing schedule is its answer.
    public var schedulesAfterFailure: Int? = nil
    /// How many processes a dfs search with the reductions none or dpor runs on at once (default:
    /// the active processor count): the report is the one a single job makes, the same counts,
    /// verdict and first failing schedule. Only the racelab tool starts processes: `Explorer.explore`
    /// called from a test (`RaceLabTesting`'s checks included) runs one job. `.states`, pct and
    /// random run one job (see `ParallelExploration`).
    public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    /// Options with the explorer's defaults: dfs, automatic reduction, at most 2 preemptions.
    /// - Parameters:
    ///   - strategy: how to search (see `Strategy`).
    ///   - reduction: dfs only: the partial-order reduction (see `Reduction`).
    ///   - threads: logical threads; nil for the exploration's default.
    ///   - preemptions: dfs: the preemption bound; pct: the priority change points.
    ///   - schedules: the most schedules to run; nil for 100,000 (dfs) or 1,000 (pct, random).
    ///   - seed: the seed of pct and random.
    ///   - stepBound: steps after which an execution is unfinished; nil scales it with the program.
    ///   - stallTimeout: seconds a thread may run between two scheduling points before it is stuck.
    ///   - marks: whether `Race.window` and `Race.step` are scheduling points.
    ///   - schedulesJobs: whether an async exploration switches at every Swift concurrency job.
    public init(
        strategy: Strategy = .dfs,
        reduction: Reduction = .automatic,
        threads: Int? = nil,
        preemptions: Int = 2,
        schedules: Int? = nil,
        seed: UInt64 = 0,
        stepBound: Int? = nil,
        stallTimeout: Double = 10,
        marks: Bool = true,
        schedulesJobs: Bool = true
    ) {
        self.strategy = strategy
        self.reduction = reduction
        self.threads = threads
        self.preemptions = preemptions
        self.schedules = schedules
        self.seed = seed
        self.stepBound = stepBound
        self.stallTimeout = stallTimeout
        self.marks = marks
        self.schedulesJobs = schedulesJobs
    }

    /// The reduction `exploration` is explored with: `.automatic` resolved.
    func reduction(for exploration: Exploration) -> Reduction {
        guard reduction == .automatic else { return reduction }
        return exploration.footprintsComplete ? .states : .none
    }

    /// Whether `exploration`'s jobs are scheduling points: `schedulesJobs`, unless the exploration
    /// marks every window (`Exploration.markingEveryWindow()`) and marks are on.
    func schedulesJobs(for exploration: Exploration) -> Bool {
        schedulesJobs && !(exploration.windowsMarked && marks)
    }

    /// The most schedules the search runs: `schedules`, or when it is nil the strategy's own limit
    /// (100,000 for dfs, whose search can finish; 1,000 for pct and random, which sample).
    public var scheduleLimit: Int {
        schedules ?? strategy.defaultScheduleLimit
    }
}

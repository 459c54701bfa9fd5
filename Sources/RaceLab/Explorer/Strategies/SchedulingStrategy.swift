/// Picks the thread that runs next at each scheduling point, execution after execution: the whole
/// of a search (shuttle's `Scheduler`). The run loop (`Explorer`, `ControlledExecution`) never asks
/// which strategy it runs.
///
/// A strategy sees what a scheduler may know at each decision (`SchedulingDecision`): which
/// threads are enabled, which one ran the previous step, and the point every thread is paused at,
/// which a partial-order reduction needs to tell dependent steps from independent ones.
protocol SchedulingStrategy: AnyObject {
    /// Called before each execution.
    func beginExecution()

    /// The thread to run next: one of `decision.enabled`.
    func choose(_ decision: SchedulingDecision) -> Int

    /// Called after each execution with how it went; false when the search is complete (every
    /// schedule it would run has run), true when there is more to run.
    func endExecution(_ result: ExecutionResult) -> Bool

    /// Something that makes the counts less than they seem (a nondeterministic program), if any.
    var warning: String? { get }

    /// Adds the strategy's own figures to a report of the search (PCT's guarantee; the exhaustive
    /// search's reduction, traces and states).
    func annotate(_ report: inout ExplorationReport)
}

extension SchedulingStrategy {
    func beginExecution() {}
    func endExecution(_ result: ExecutionResult) -> Bool { true }
    var warning: String? { nil }
    func annotate(_ report: inout ExplorationReport) {}
}

/// What a strategy sees at one decision.
struct SchedulingDecision {
    /// The threads that can run, in ascending order (never empty).
    let enabled: [Int]
    /// The thread that ran the previous step, nil at the first decision.
    let current: Int?
    /// How many steps ran before this decision.
    let step: Int
    /// By thread id: the point each thread is paused at; nil for a finished thread.
    let pending: [(any SchedulingPoint)?]
    /// What the previous step touched (see `Footprint`), nil at the first decision.
    var previousStep: Footprint? = nil
    /// The threads started so far, in the order they were started (their ids follow the program's).
    var spawned: [SpawnedThread] = []
    /// The first failure the steps so far said they saw (`Race.failureSeen(_:)`).
    var failureSeen: FailureSeen? = nil

    /// The choice that preempts nobody: the thread that ran the previous step if it can go on,
    /// otherwise the lowest enabled one.
    var nonPreemptive: Int {
        if let current, enabled.contains(current) { return current }
        return enabled[0]
    }

    /// Every unfinished thread's paused operation, with what it declares it touches (its own
    /// thread included): what a partial-order reduction compares steps by.
    var pendingFootprints: [(thread: Int, footprint: Footprint)] {
        pending.indices.compactMap { thread in
            pending[thread].map { point in
                var footprint = point.footprint
                footprint.insert(.thread(thread))
                return (thread, footprint)
            }
        }
    }
}

extension ExplorationOptions {
    /// The strategy that runs a search with these options, over programs of `threads` threads: the
    /// one place that maps `strategy` and `reduction` to a strategy.
    func makeStrategy(threads: Int) -> any SchedulingStrategy {
        switch strategy {
        case .dfs:
            switch reduction {
            case .states:
                BoundedSearch(preemptionBound: preemptions, policy: StateCachingReduction(preemptionBound: preemptions))
            case .dpor: BoundedSearch(preemptionBound: preemptions, policy: DPORReduction())
            // `.automatic` is resolved by `Explorer` before a strategy is made; unresolved, it is none.
            case .none, .automatic: BoundedSearch(preemptionBound: preemptions, policy: NoReduction())
            }
        case .pct: PCTStrategy(threads: threads, depth: preemptions + 1, seed: seed, stepEstimate: 1)
        case .random: RandomStrategy(seed: seed)
        }
    }

    /// Whether the search can be split into tasks below fixed prefixes (`--jobs`, `--shard`): an
    /// exhaustive search whose policy decides below a prefix from that prefix's schedules alone
    /// (none, dpor), not from a cache the whole search shares (states). `reduction` is resolved.
    var splitsIntoTasks: Bool {
        strategy.searchesExhaustively && (reduction == .none || reduction == .dpor)
    }
}

extension ExplorationOptions.Strategy {
    /// Whether the strategy searches every schedule within a bound (and can finish, exhaustive),
    /// rather than sampling schedules: its reports count traces and time each phase.
    package var searchesExhaustively: Bool {
        switch self {
        case .dfs: true
        case .pct, .random: false
        }
    }

    /// Whether `ExplorationOptions.preemptions` bounds its search by preemptions (dfs); pct reads
    /// the same number as priority change points, random ignores it.
    package var boundsPreemptions: Bool {
        switch self {
        case .dfs: true
        case .pct, .random: false
        }
    }

    /// Whether the schedules it runs depend on `ExplorationOptions.seed`.
    var isSeeded: Bool { !searchesExhaustively }

    /// The most schedules it runs when `ExplorationOptions.schedules` is nil.
    var defaultScheduleLimit: Int { searchesExhaustively ? 100_000 : 1_000 }
}

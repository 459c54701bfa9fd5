import Dispatch

/// The search's bookkeeping, execution after execution, in the order a sequential search runs them:
/// the one fold that a sequential search and the merge of a parallel one (`ParallelExploration`)
/// both feed, so that their counts, first failure and stopping point are the same by construction.
struct ExplorationTally {
    let scheduleLimit: Int
    let schedulesAfterFailure: Int?
    /// When the exploration started, on the monotonic clock.
    let start: UInt64
    /// Whether the step bound is measured (none was given).
    private(set) var measuring: Bool
    /// The step bound: the one given, or measured from the first execution that finishes.
    private(set) var stepBound: Int

    private(set) var schedules = 0
    private(set) var failing = 0
    private(set) var shortest: ExecutionResult?
    private(set) var shortestSteps = 0
    /// Among equally short failures, the one to keep (`Exploration.preferringFailures(where:)`).
    var prefers: (@Sendable (String) -> Bool)?
    /// Whether `shortest` is one `prefers` accepts (true when nothing is preferred).
    private var shortestPreferred = true
    private(set) var errors = 0
    private(set) var firstError: ExecutionResult?
    private(set) var unfinished = 0
    private(set) var firstUnfinished: ExecutionResult?
    private(set) var warning: String?
    private(set) var abandoned: String?
    private(set) var stall: StallDiagnosis?
    /// Threads that ran as set-up in every execution.
    private(set) var unscheduled: Set<Int>?
    /// The most decisions any execution had.
    private(set) var branching = 0
    private(set) var jobsWereSteps = false
    private(set) var firstFailure: (schedule: Int, seconds: Double)?
    private(set) var stoppedAfterFailure = false
    private(set) var timing = ExplorationTiming()
    /// The distinct traces of the executions that finished, when the records carry them.
    private(set) var traces = Set<TraceDigest>()
    /// Set when the search ran every schedule it would run.
    var exhaustive = false

    init(options: ExplorationOptions, start: UInt64) {
        scheduleLimit = options.scheduleLimit
        schedulesAfterFailure = options.schedulesAfterFailure
        self.start = start
        measuring = options.stepBound == nil
        stepBound = options.stepBound ?? StepBound.beforeMeasuring
    }

    /// Whether the search stops before running another execution: the schedule limit, or the
    /// schedules asked for after the first failure, are reached.
    mutating func stopsBeforeNext() -> Bool {
        if let after = schedulesAfterFailure, let first = firstFailure, schedules - first.schedule >= after {
            stoppedAfterFailure = true
            return true
        }
        return schedules >= scheduleLimit
    }

    /// Counts one execution; false when the search stops with it (a stuck thread, a livelock).
    ///
    /// - Parameter result: the record's execution, for the kinds a report keeps; called only when
    ///   the tally keeps it.
    mutating func consume(
        _ record: ExecutionRecord,
        result: (ExecutionRecord) throws -> ExecutionResult
    ) rethrows -> Bool {
        schedules += 1
        jobsWereSteps = jobsWereSteps || record.jobsWereSteps
        timing.setUp += record.timing.setUp
        timing.threads += record.timing.threads
        timing.steps += record.timing.steps
        timing.check += record.timing.check
        timing.analysis += record.timing.analysis
        if let trace = record.trace { traces.insert(trace) }
        switch record.kind {
        case .stuck:
            // Not a verdict on the program: a thread left the explorer's control (it blocks on
            // something the explorer does not model, or the cooperative pool is exhausted).
            abandoned = record.summary
            stall = record.stall
            warning = "a thread got stuck outside the explorer's control; exploration stopped"
            return false
        case .unfinished:
            unfinished += 1
            if firstUnfinished == nil { firstUnfinished = try result(record) }
            if record.threadsLeftRunning {
                // Its threads loop on even free-running: each further schedule would leave more.
                abandoned = record.summary
                warning =
                    "the threads of schedule \(schedules) did not finish even when run freely (a livelock); "
                    + "exploration stopped"
                return false
            }
        case .passed, .failed, .error:
            if measuring {
                stepBound = StepBound.measured(from: record.stepCount)
                measuring = false
            }
        }
        unscheduled = (unscheduled ?? Set(record.unscheduled)).intersection(record.unscheduled)
        branching = max(branching, record.branching)
        if record.kind == .failed {
            failing += 1
            if firstFailure == nil {
                firstFailure = (schedules, Double(record.endedAt &- start) / 1e9)
            }
            if shortest == nil || record.stepCount < shortestSteps {
                let kept = try result(record)
                shortest = kept
                shortestSteps = record.stepCount
                shortestPreferred = prefers.map { $0(kept.outcome.summary) } ?? true
            } else if record.stepCount == shortestSteps, !shortestPreferred, let prefers {
                let candidate = try result(record)
                if prefers(candidate.outcome.summary) {
                    shortest = candidate
                    shortestPreferred = true
                }
            }
        } else if record.kind == .error {
            errors += 1
            if firstError == nil { firstError = try result(record) }
        }
        return true
    }

    /// Adds the time the search spent between executions (its analysis) to the tally.
    mutating func addAnalysis(_ seconds: Double) {
        timing.analysis += seconds
    }
}

import Dispatch

/// One execution as the search's tally (`ExplorationTally`) counts it: compact enough that a
/// parallel search's tasks send one per execution to the coordinator.
///
/// The full `ExecutionResult` is kept only for the executions a report can show (failing, error,
/// unfinished, stuck); a record from another process carries the schedule instead, and the
/// coordinator replays it when the tally keeps it.
struct ExecutionRecord: Codable, Sendable {
    /// What the execution came to, for the tally.
    enum Kind: String, Codable, Sendable {
        case passed
        case failed
        case error
        case unfinished
        case stuck
    }

    var kind: Kind
    /// An unfinished execution whose threads did not finish even when run freely (a livelock).
    var threadsLeftRunning: Bool
    var stepCount: Int
    var unscheduled: [Int]
    var branching: Int
    var jobsWereSteps: Bool
    var timing: ExplorationTiming
    /// When it ended, in nanoseconds of the monotonic clock (the same in every process).
    var endedAt: UInt64
    /// Its trace (nil for an execution that did not finish, or for a strategy that counts none).
    var trace: TraceDigest?
    /// The outcome in one line, and the stall, for a stuck or unfinished execution.
    var summary: String?
    var stall: StallDiagnosis?
    /// The thread chosen at each decision, for the kinds a report can keep.
    var choices: [Int]?
    /// The execution itself, in the process that ran it, for the kinds a report can keep.
    var result: ExecutionResult?

    private enum CodingKeys: String, CodingKey {
        case kind, threadsLeftRunning, stepCount, unscheduled, branching, jobsWereSteps, timing, endedAt, trace
        case summary, stall, choices
    }

    /// The record of `result`, whose set-up took `setUp` seconds.
    init(_ result: ExecutionResult, setUp: Double, trace: TraceDigest?) {
        if case .stuck = result.outcome {
            kind = .stuck
        } else if case .stepBoundExceeded = result.outcome {
            kind = .unfinished
        } else if result.isFailure {
            kind = .failed
        } else if result.isError {
            kind = .error
        } else {
            kind = .passed
        }
        threadsLeftRunning = result.threadsLeftRunning
        stepCount = result.steps.count
        unscheduled = result.unscheduledThreads
        branching = result.branchingDecisions
        jobsWereSteps = result.jobsWereSteps
        timing = result.timing
        timing.setUp = setUp
        endedAt = DispatchTime.now().uptimeNanoseconds
        self.trace = trace
        if kind == .stuck || kind == .unfinished {
            summary = result.outcome.summary
            stall = result.stall
        }
        if kind != .passed {
            choices = result.schedule.choices
            self.result = result
        }
    }
}

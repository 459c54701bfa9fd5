/// How one controlled execution ended.
public enum ExecutionOutcome: Equatable, Sendable, Codable {
    /// Every thread finished and the invariant held.
    case passed
    /// Every thread finished and the invariant did not hold: what broke.
    case invariantBroken(String)
    /// A thread body threw. An error, not the bug, unless the exploration declares that an error is
    /// its failure (`Exploration.errorsAreFailures`).
    case threw(thread: Int, message: String)
    /// No thread could go on: where each unfinished thread was waiting.
    case deadlock([ThreadPosition])
    /// The execution did not finish within the step bound (its associated value): a livelock, a spin
    /// loop through scheduling points, or a program longer than the bound. Not a verdict.
    case stepBoundExceeded(Int)
    /// A thread ran for `seconds` without reaching a scheduling point or its end: it spins or blocks
    /// on something the explorer does not control. Its thread is abandoned and exploration stops.
    case stuck(thread: Int, after: String, seconds: Double)

    /// Whether this execution shows a bug whatever the exploration declares: a broken invariant or
    /// a deadlock. An error (`threw`) counts only where the exploration says so (see
    /// `ExecutionResult.isFailure`); an unfinished or stuck execution never does.
    public var isFailure: Bool {
        switch self {
        case .invariantBroken, .deadlock: true
        case .passed, .threw, .stepBoundExceeded, .stuck: false
        }
    }

    /// Whether a thread threw.
    public var isError: Bool {
        if case .threw = self { return true }
        return false
    }

    /// Whether the execution ended without saying anything about the program: it did not finish
    /// within the step bound, or a thread left the explorer's control.
    public var isInconclusive: Bool {
        switch self {
        case .stepBoundExceeded, .stuck: true
        case .passed, .invariantBroken, .threw, .deadlock: false
        }
    }

    /// One line for reports.
    public var summary: String {
        switch self {
        case .passed: "passed"
        case .invariantBroken(let what): "invariant broken: \(what)"
        case let .threw(thread, message): "thread \(thread) threw: \(message)"
        case .deadlock(let positions):
            "deadlock: " + positions.map(\.description).joined(separator: "; ")
        case .stepBoundExceeded(let bound):
            "did not finish within \(bound) step\(bound == 1 ? "" : "s") "
                + "(a livelock, or a longer program: --steps or ExplorationOptions.stepBound raises the bound)"
        case let .stuck(thread, after, seconds):
            "thread \(thread) ran \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s after '\(after)' without reaching a scheduling point"
        }
    }

    /// A short machine-readable kind, for JSON.
    public var kind: String {
        switch self {
        case .passed: "passed"
        case .invariantBroken: "invariant"
        case .threw: "error"
        case .deadlock: "deadlock"
        case .stepBoundExceeded: "unfinished"
        case .stuck: "stuck"
        }
    }
}

/// Where a blocked thread stands in a deadlock.
public struct ThreadPosition: Equatable, Sendable, Codable, CustomStringConvertible {
    /// The blocked logical thread's id.
    public let thread: Int
    /// The operation it cannot perform, e.g. `lock first`.
    public let waitingFor: String
    /// The thread holding what it waits for, when known.
    public let heldBy: Int?

    /// A blocked thread's position.
    /// - Parameters:
    ///   - thread: the blocked logical thread.
    ///   - waitingFor: the operation it cannot perform.
    ///   - heldBy: the thread holding what it waits for; nil when unknown.
    public init(thread: Int, waitingFor: String, heldBy: Int?) {
        self.thread = thread
        self.waitingFor = waitingFor
        self.heldBy = heldBy
    }

    public var description: String {
        "thread \(thread) waits at '\(waitingFor)'" + (heldBy.map { " (held by thread \($0))" } ?? "")
    }
}

/// One controlled execution: the schedule it followed, the steps it ran, how it ended.
///
/// Its JSON (`Codable`) carries what a report shows of it; what the search analysed it for (each
/// step's footprint, what blocked threads would touch) stays in the process that ran it.
public struct ExecutionResult: Sendable, Equatable, Codable {
    /// The schedule followed, with the program's fingerprint when the explorer ran it.
    public internal(set) var schedule: Schedule
    /// The steps it ran, in order: one per scheduling point passed.
    public let steps: [ScheduleStep]
    /// How it ended: finished, a broken invariant, an error, a deadlock, unfinished or stuck.
    public let outcome: ExecutionOutcome
    /// Threads started while it ran, beyond the program's own (`schedule.threads`).
    public var spawned: [SpawnedThread] = []
    /// The shared state before the first step and after each step, as the exploration describes
    /// it (`describeState`); empty unless it was asked for and the exploration can describe it.
    public var states: [String] = []
    /// For a `stuck` outcome: the likely reason and the fix.
    public var stall: StallDiagnosis?
    /// The program's threads that finished without reaching a scheduling point (they ran as set-up,
    /// or as one step from a start point) and whose code never ran while another thread was between
    /// two points.
    public var unscheduledThreads: [Int] = []
    /// Decisions at which more than one thread could go on: 0 means no other schedule exists.
    public var branchingDecisions = 0
    /// The first failure its code said it saw (`Race.failureSeen(_:)`), with the step it was seen
    /// in; nil when its code said none.
    public var failureSeen: FailureSeen?
    /// Seconds this execution spent starting its threads, in its steps, and checking its end
    /// (`ExplorationTiming`'s `threads`, `steps` and `check`).
    var timing = ExplorationTiming()
    /// What each step touched, in step order (see `Footprint`), for partial-order reduction.
    var footprints: [Footprint] = []
    /// After a deadlock: what each unfinished thread's blocked operation would touch. A race with
    /// a step that never ran must be reversed too (it may be what avoids or causes the deadlock).
    var blocked: [Int: Footprint] = [:]

    /// Threads that are still running or parked when the execution ended: a stuck thread, or threads
    /// that did not finish free-running after the step bound (a livelock). The state is not torn
    /// down under them, and the exploration stops.
    var threadsLeftRunning = false
    /// Whether a thread's error counts as the bug (`Exploration.errorsAreFailures`).
    public internal(set) var errorsAreFailures = false
    /// Whether Swift concurrency jobs were scheduling points: each job ran as one step.
    public internal(set) var jobsWereSteps = false
    /// Whether the program's threads ran async bodies, as Swift tasks: a replay's text then names
    /// them tasks, as its search's does.
    public internal(set) var isAsync: Bool {
        get { asyncBodies ?? false }
        set { asyncBodies = newValue ? true : nil }
    }
    /// `isAsync`, in the JSON only when true (a replay carried from a child process keeps it).
    var asyncBodies: Bool?

    private enum CodingKeys: String, CodingKey {
        case schedule, steps, outcome, spawned, states, stall, unscheduledThreads, branchingDecisions, failureSeen
        case timing
        case threadsLeftRunning, errorsAreFailures, jobsWereSteps
        case asyncBodies = "isAsync"
    }

    /// Whether this execution shows the bug: a broken invariant, a deadlock, or an error where the
    /// exploration declares errors its failure.
    public var isFailure: Bool { outcome.isFailure || (errorsAreFailures && outcome.isError) }

    /// Whether a thread threw an error that is not the exploration's failure: no evidence either way.
    public var isError: Bool { !errorsAreFailures && outcome.isError }

    /// Every logical thread that took part: the program's own and the spawned ones.
    public var threadCount: Int { schedule.threads + spawned.count }
}

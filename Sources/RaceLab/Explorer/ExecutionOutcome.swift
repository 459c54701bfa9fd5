/// How one controlled execution ended.
public enum ExecutionOutcome: Equatable, Sendable {
    /// Every thread finished and the invariant held.
    case passed
    /// Every thread finished and the invariant did not hold: what broke.
    case invariantBroken(String)
    /// A thread body threw.
    case threw(thread: Int, message: String)
    /// No thread could go on: where each unfinished thread was waiting.
    case deadlock([ThreadPosition])
    /// More steps than the step bound: a livelock or a spin loop through scheduling points.
    case stepBoundExceeded(Int)
    /// A thread ran for `seconds` without reaching a scheduling point or its end: it spins or blocks
    /// on something the explorer does not control. Its thread is abandoned and exploration stops.
    case stuck(thread: Int, after: String, seconds: Double)

    /// Whether this execution shows a bug.
    public var isFailure: Bool { self != .passed }

    /// One line for reports.
    public var summary: String {
        switch self {
        case .passed: "passed"
        case .invariantBroken(let what): "invariant broken: \(what)"
        case let .threw(thread, message): "thread \(thread) threw: \(message)"
        case .deadlock(let positions):
            "deadlock: " + positions.map(\.description).joined(separator: "; ")
        case .stepBoundExceeded(let bound): "livelock: more than \(bound) steps without finishing"
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
        case .stepBoundExceeded: "livelock"
        case .stuck: "stuck"
        }
    }
}

/// Where a blocked thread stands in a deadlock.
public struct ThreadPosition: Equatable, Sendable, Codable, CustomStringConvertible {
    public let thread: Int
    /// The operation it cannot perform, e.g. `lock first`.
    public let waitingFor: String
    /// The thread holding what it waits for, when known.
    public let heldBy: Int?

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
public struct ExecutionResult: Sendable {
    public let schedule: Schedule
    public let steps: [ScheduleStep]
    public let outcome: ExecutionOutcome
    /// Threads started while it ran, beyond the program's own (`schedule.threads`).
    public var spawned: [SpawnedThread] = []
    /// The shared state before the first step and after each step, as the exploration describes
    /// it (`describeState`); empty unless it was asked for and the exploration can describe it.
    public var states: [String] = []
    /// For a `stuck` outcome: the likely reason and the fix.
    public var stall: StallDiagnosis?
    /// The program's threads that finished without reaching a scheduling point: they ran as set-up.
    public var unscheduledThreads: [Int] = []
    /// Decisions at which more than one thread could go on: 0 means no other schedule exists.
    public var branchingDecisions = 0
    /// Seconds this execution spent starting its threads, in its steps, and checking its end
    /// (`ExplorationTiming`'s `threads`, `steps` and `check`).
    var timing = ExplorationTiming()
    /// What each step touched, in step order (see `Footprint`), for partial-order reduction.
    var footprints: [Footprint] = []
    /// After a deadlock: what each unfinished thread's blocked operation would touch. A race with
    /// a step that never ran must be reversed too (it may be what avoids or causes the deadlock).
    var blocked: [Int: Footprint] = [:]

    /// Every logical thread that took part: the program's own and the spawned ones.
    public var threadCount: Int { schedule.threads + spawned.count }
}

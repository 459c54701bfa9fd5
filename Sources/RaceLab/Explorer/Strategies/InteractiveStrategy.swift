/// Asks someone at every decision: `racelab play`, where the participant is the scheduler.
///
/// One execution. It first replays `prefix` (an undo or a restart runs the program again from the
/// start, because a paused real thread cannot be rolled back), then hands every decision to
/// `decide`. Once `decide` answers `.stop`, or the prefix did not fit, the rest of the execution
/// runs without preemptions and is not shown.
final class InteractiveStrategy: SchedulingStrategy {
    private let prefix: [Int]
    private let decide: (PlayDecision) -> PlayAnswer
    private let states: StateLog
    /// Every step of the execution, including those run after the player stopped.
    private(set) var steps: [ScheduleStep] = []
    /// How many steps ran before the player stopped (or the prefix stopped fitting).
    private(set) var stoppedAfter: Int?
    private(set) var diverged = false

    private var stopped: Bool { stoppedAfter != nil }

    init(prefix: [Int], states: StateLog, decide: @escaping (PlayDecision) -> PlayAnswer) {
        self.prefix = prefix
        self.states = states
        self.decide = decide
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let chosen = pick(decision)
        steps.append(ScheduleStep(thread: chosen, operation: decision.pending[chosen]?.name ?? "?"))
        return chosen
    }

    private func pick(_ decision: SchedulingDecision) -> Int {
        if decision.step < prefix.count {
            if decision.enabled.contains(prefix[decision.step]) { return prefix[decision.step] }
            diverged = true
            stoppedAfter = steps.count
        }
        guard !stopped else { return decision.nonPreemptive }
        let threads = decision.pending.enumerated().map { thread, point in
            PlayDecision.Thread(
                id: thread,
                next: point?.name,
                canRun: decision.enabled.contains(thread)
            )
        }
        var shown = PlayDecision(steps: steps, threads: threads, state: states.states.last)
        shown.failureSeen = decision.failureSeen
        switch decide(shown) {
        case .run(let thread):
            precondition(decision.enabled.contains(thread), "play chose thread \(thread), which cannot run")
            return thread
        case .stop:
            stoppedAfter = steps.count
            return decision.nonPreemptive
        }
    }

    func endExecution(_ result: ExecutionResult) -> Bool {
        false
    }
}

/// What the player sees at one decision of `Explorer.play`.
public struct PlayDecision: Sendable {
    /// One logical thread: the program's own first, then those it started.
    public struct Thread: Sendable, Equatable {
        /// The thread's id, the number the player types.
        public let id: Int
        /// The operation it performs when chosen; nil once it finished.
        public let next: String?
        /// Whether it can be chosen now (a thread waiting for a lock cannot).
        public let canRun: Bool
    }

    /// The steps so far.
    public let steps: [ScheduleStep]
    /// Every logical thread, runnable or not.
    public let threads: [Thread]
    /// The shared state now, when the exploration describes it.
    public let state: String?
    /// The first failure the code of the steps so far said it saw, with its step
    /// (`Race.failureSeen(_:)`); nil while none did.
    public internal(set) var failureSeen: FailureSeen?

    /// The threads that can be chosen, in ascending order.
    public var runnable: [Int] { threads.filter(\.canRun).map(\.id) }
}

/// The player's answer to a `PlayDecision`.
public enum PlayAnswer: Sendable {
    /// Run this thread (one of `runnable`) to its next scheduling point.
    case run(Int)
    /// Stop asking: the rest of the execution runs unseen.
    case stop
}

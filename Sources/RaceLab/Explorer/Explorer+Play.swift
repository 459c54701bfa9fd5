/// One execution of `Explorer.play`.
public struct PlayedExecution: Sendable {
    /// The execution as it ran: the chosen steps, and (when the player stopped) the unseen rest.
    public let result: ExecutionResult
    /// The steps the player saw or the prefix replayed; the whole execution unless `stopped`.
    public let steps: [ScheduleStep]
    /// The player answered `.stop`: the result is not the player's schedule.
    public let stopped: Bool
    /// The prefix did not fit the program (it is not deterministic under a fixed schedule).
    public let diverged: Bool
}

extension Explorer {
    /// Runs `exploration` once with a person as the scheduler: replays `prefix` (a thread id per
    /// decision), then calls `decide` at every further decision, on the calling thread, while every
    /// logical thread is paused.
    ///
    /// An undo is a new call with a shorter prefix: a paused thread cannot be rolled back, but the
    /// same schedule makes the same execution.
    ///
    /// - Throws: what the exploration's set-up threw.
    public static func play(
        _ exploration: Exploration,
        threads: Int,
        prefix: [Int],
        options: ExplorationOptions = .init(),
        decide: @escaping (PlayDecision) -> PlayAnswer
    ) throws -> PlayedExecution {
        var options = options
        options.schedulesJobs = options.schedulesJobs(for: exploration)
        // The search's rule for start points, from one execution that the player does not see.
        let probe = try exploration.makeProgram(threads)
        let first = ControlledExecution.run(
            probe,
            strategy: BoundedSearch(preemptionBound: 0, policy: NoReduction()),
            stepBound: options.stepBound ?? StepBound.beforeMeasuring,
            stallTimeout: options.stallTimeout,
            marks: options.marks,
            schedulesJobs: options.schedulesJobs,
            windowsMarked: exploration.windowsMarked
        )
        let startPoints = needsStartPoints(first, async: probe.isAsync && options.schedulesJobs)
        let program = try exploration.makeProgram(threads)
        let states = StateLog()
        let strategy = InteractiveStrategy(prefix: prefix, states: states, decide: decide)
        let result = exploration.execute(
            program,
            strategy: strategy,
            stepBound: options.stepBound ?? StepBound.beforeMeasuring + prefix.count,
            options: options,
            startPoints: startPoints,
            fingerprint: exploration.fingerprint(marks: options.marks),
            states: states
        )
        return PlayedExecution(
            result: result,
            steps: Array(strategy.steps.prefix(strategy.stoppedAfter ?? strategy.steps.count)),
            stopped: strategy.stoppedAfter != nil,
            diverged: strategy.diverged
        )
    }
}

import Foundation

/// Runs an exploration's real code under a controlled scheduler, schedule after schedule, and
/// reports the failing ones.
///
/// Blocks the calling thread while logical threads run; from async code (tests) use the `async`
/// overloads, which run it on a thread of their own so that the cooperative pool is never blocked.
public enum Explorer {
    /// Searches schedules with `options.strategy`.
    public static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions = .init()
    ) throws -> ExplorationReport {
        try explore(exploration, options: options, after: [])
    }

    /// Searches the schedules that begin with `prefix` (a thread id per decision): `racelab play`'s
    /// hint, from where the player stands.
    public static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions = .init(),
        after prefix: [Int]
    ) throws -> ExplorationReport {
        try explore(exploration, options: options, after: prefix, startPoints: false)
    }

    /// Whether threads that ran without start points must start at points: a synchronous thread
    /// ran as set-up to its end in `result`, so no order but the one they were started in ran.
    static func needsStartPoints(_ result: ExecutionResult, async: Bool) -> Bool {
        if case .stuck = result.outcome { return false }
        return !async && !result.unscheduledThreads.isEmpty
    }

    /// The search, with each synchronous thread starting at a point of its own or not. Without, the
    /// first execution decides: when a thread ran as set-up to its end, the search starts again
    /// with start points (the seconds of that first execution are counted in the report's).
    private static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions,
        after prefix: [Int],
        startPoints: Bool,
        startedAt: UInt64 = DispatchTime.now().uptimeNanoseconds
    ) throws -> ExplorationReport {
        let given = options
        var options = options
        options.reduction = options.reduction(for: exploration)
        options.schedulesJobs = options.schedulesJobs(for: exploration)
        let threads = options.threads ?? exploration.defaultThreads
        let fingerprint = exploration.fingerprint(marks: options.marks)
        let start = startedAt
        var schedules = 0
        var failing = 0
        var shortest: ExecutionResult?
        var errors = 0
        var firstError: ExecutionResult?
        var unfinished = 0
        var firstUnfinished: ExecutionResult?
        var warning: String?
        var abandoned: String?
        var stall: StallDiagnosis?
        // Threads that ran as set-up in every execution, and the most decisions any execution had.
        var unscheduled: Set<Int>?
        var branching = 0
        var exhaustive = false
        var jobsWereSteps = false
        var firstFailure: (schedule: Int, seconds: Double)?
        var isAsync = false
        var stoppedAfterFailure = false
        // The step bound: the one given, or measured from the first execution that finishes.
        var stepBound = options.stepBound ?? StepBound.beforeMeasuring
        var measuring = options.stepBound == nil

        let made = options.makeStrategy(threads: threads)
        let strategy: any SchedulingStrategy = prefix.isEmpty ? made : PrefixedStrategy(prefix, then: made)

        var timing = ExplorationTiming()
        while schedules < options.scheduleLimit {
            let setUp = DispatchTime.now().uptimeNanoseconds
            let program = try exploration.makeProgram(threads)
            isAsync = program.isAsync
            timing.setUp += secondsSince(setUp)
            var result = ControlledExecution.run(
                program,
                strategy: strategy,
                stepBound: stepBound,
                stallTimeout: options.stallTimeout,
                marks: options.marks,
                schedulesJobs: options.schedulesJobs,
                footprintsComplete: exploration.footprintsComplete,
                startPoints: startPoints,
                windowsMarked: exploration.windowsMarked
            )
            if !startPoints && schedules == 0
                && needsStartPoints(result, async: program.isAsync && options.schedulesJobs)
            {
                return try explore(exploration, options: given, after: prefix, startPoints: true, startedAt: start)
            }
            result.schedule.program = fingerprint
            result.errorsAreFailures = exploration.errorsAreFailures
            schedules += 1
            jobsWereSteps = jobsWereSteps || result.jobsWereSteps
            timing.threads += result.timing.threads
            timing.steps += result.timing.steps
            timing.check += result.timing.check
            let analysis = DispatchTime.now().uptimeNanoseconds
            defer { timing.analysis += secondsSince(analysis) }
            if case .stuck = result.outcome {
                // Not a verdict on the program: a thread left the explorer's control (it blocks on
                // something the explorer does not model, or the cooperative pool is exhausted).
                abandoned = result.outcome.summary
                stall = result.stall
                warning = "a thread got stuck outside the explorer's control; exploration stopped"
                break
            }
            if case .stepBoundExceeded = result.outcome {
                unfinished += 1
                if firstUnfinished == nil { firstUnfinished = result }
                if result.threadsLeftRunning {
                    // Its threads loop on even free-running: each further schedule would leave more.
                    abandoned = result.outcome.summary
                    warning =
                        "the threads of schedule \(schedules) did not finish even when run freely (a livelock); "
                        + "exploration stopped"
                    break
                }
            } else if measuring {
                stepBound = StepBound.measured(from: result.steps.count)
                measuring = false
            }
            unscheduled = (unscheduled ?? Set(result.unscheduledThreads)).intersection(result.unscheduledThreads)
            branching = max(branching, result.branchingDecisions)
            if result.isFailure {
                failing += 1
                if firstFailure == nil {
                    firstFailure = (schedules, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                if shortest == nil || result.steps.count < shortest!.steps.count { shortest = result }
            } else if result.isError {
                errors += 1
                if firstError == nil { firstError = result }
            }
            let ended = !strategy.endExecution(result)
            if ended {
                exhaustive = true
                break
            }
            if let after = options.schedulesAfterFailure, let first = firstFailure, schedules - first.schedule >= after
            {
                stoppedAfterFailure = true
                break
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let notInterleaved =
            abandoned == nil
            ? nothingExplored(
                threads,
                unscheduled,
                branching,
                remedy: remedy(async: isAsync, marks: options.marks, jobs: options.schedulesJobs)
            )
            : nil
        var report = ExplorationReport(
            strategy: options.strategy,
            threads: threads,
            preemptions: options.preemptions,
            seed: options.seed,
            schedules: schedules,
            exhaustive: exhaustive,
            failingSchedules: failing,
            failure: shortest,
            elapsedSeconds: elapsed,
            warning: joinedWarnings(
                warning ?? strategy.warning,
                notInterleaved
            ),
            abandoned: abandoned
        )
        report.stall = stall
        report.notInterleaved = notInterleaved
        report.stoppedAfterFailure = stoppedAfterFailure ? options.schedulesAfterFailure : nil
        report.timing = timing
        report.errorSchedules = errors
        report.firstError = firstError
        report.unfinishedSchedules = unfinished
        report.firstUnfinished = firstUnfinished
        report.stepBound = stepBound
        report.stepBoundGiven = options.stepBound != nil
        report.marks = options.marks
        report.isAsync = exploration.isAsync
        report.jobsWereSteps = jobsWereSteps
        report.errorsAreFailures = exploration.errorsAreFailures
        strategy.annotate(&report)
        report.firstFailingSchedule = firstFailure?.schedule
        report.secondsToFirstFailure = firstFailure?.seconds
        return report
    }

    /// Warnings, one a line; nil when there is none.
    private static func joinedWarnings(_ warnings: String?...) -> String? {
        let lines = warnings.compactMap { $0 }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// The warning for an exploration in which nothing, or less than the program, was interleaved:
    /// threads that ran as set-up in every execution (`unscheduled`), and a search in which no
    /// decision ever had two threads to choose from (`branching` 0, so every execution was the same).
    /// `remedy` says what would give such a thread scheduling points in this exploration.
    static func nothingExplored(
        _ threads: Int,
        _ unscheduled: Set<Int>?,
        _ branching: Int,
        remedy: String = remedy(async: false, marks: true, jobs: true)
    ) -> String? {
        let idle = (unscheduled ?? []).sorted()
        let names =
            idle.count == 1
            ? "thread \(idle[0])"
            : "threads " + idle.dropLast().map(String.init).joined(separator: ", ") + " and \(idle.last ?? 0)"
        let why =
            (idle.count == 1 ? "it" : "each")
            + " ran from its start to its end as one step (only the orders in which threads start were tried): "
            + remedy
        var lines: [String] = []
        if branching == 0 {
            let reason =
                threads == 1
                ? "the program has one thread (--threads)"
                : idle.isEmpty
                    ? "no two threads could ever go on at the same point (each ran alone: check that they "
                        + "share the state, and that locks are not held across their whole bodies)"
                    : "\(names) finished without reaching a scheduling point; \(why)"
            lines.append("nothing was explored: there is one schedule only, because \(reason)")
        } else if !idle.isEmpty {
            lines.append("\(names) finished without reaching a scheduling point; \(why)")
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    /// What gives a thread scheduling points, for an exploration of this kind.
    static func remedy(async: Bool, marks: Bool, jobs: Bool) -> String {
        let ignored = marks ? "" : "marks are off, so its Race.window and Race.step were ignored; "
        if async && !jobs {
            return ignored
                + "Swift concurrency jobs are not scheduling points here (schedulesJobs is false): turn them "
                + "back on (the default), or mark where it touches shared state (Race.window)"
        }
        if async {
            return ignored
                + "its task ran as one job, so nothing in it suspended (an await that waits: another actor, "
                + "a task's value, a sleep); a step of synchronous code in it needs what synchronous code needs "
                + "(RaceLab's primitives through the RaceLab switch, @RaceShared, a Race.window mark)"
        }
        return ignored
            + "compile the code under test with the RaceLab switch (its DispatchQueue, NSLock, ... are then "
            + "RaceLab's), keep shared variables in @RaceShared, or mark where it touches shared state "
            + "(Race.window)"
    }

    /// Runs exactly `schedule` once.
    ///
    /// A schedule that names another program (`Schedule.program`, from its replay string), or whose
    /// choices the program cannot follow (a thread that cannot run at that point, fewer or more
    /// decisions than the program takes), is refused: nothing it ran is returned as a result.
    ///
    /// - Parameters:
    ///   - exploration: the program.
    ///   - schedule: the schedule to follow.
    ///   - options: the step bound, stall limit and marks to run it with (the strategy is ignored).
    ///   - describingStates: also record the state after each step in `result.states`
    ///     (when the exploration has a `describeState`).
    /// - Throws: `ReplayRefusal` with the reason when the schedule does not fit; what the
    ///   exploration's set-up threw.
    public static func replay(
        _ exploration: Exploration,
        schedule: Schedule,
        options: ExplorationOptions = .init(),
        describingStates: Bool = false
    ) throws -> ExecutionResult {
        let fingerprint = exploration.fingerprint(marks: options.marks)
        if let program = schedule.program, program != fingerprint {
            if program == exploration.fingerprint(marks: !options.marks) {
                throw ReplayRefusal(
                    "the replay string was made with marks \(options.marks ? "off" : "on"): "
                        + "replay it with --marks \(options.marks ? "off" : "on") (ExplorationOptions(marks: \(!options.marks)))"
                )
            }
            throw ReplayRefusal(
                "the replay string belongs to another program (fingerprint \(program); this one's is "
                    + "\(fingerprint)): replay it on the lesson, variant or exploration that printed it"
            )
        }
        var options = options
        options.schedulesJobs = options.schedulesJobs(for: exploration)
        func run(startPoints: Bool) throws -> (ExecutionResult, ReplayStrategy, isAsync: Bool) {
            let program = try exploration.makeProgram(schedule.threads)
            let strategy = ReplayStrategy(schedule)
            let result = ControlledExecution.run(
                program,
                strategy: strategy,
                stepBound: options.stepBound ?? StepBound.beforeMeasuring + schedule.choices.count,
                stallTimeout: options.stallTimeout,
                states: describingStates ? StateLog() : nil,
                marks: options.marks,
                schedulesJobs: options.schedulesJobs,
                footprintsComplete: exploration.footprintsComplete,
                startPoints: startPoints,
                windowsMarked: exploration.windowsMarked
            )
            return (result, strategy, program.isAsync && options.schedulesJobs)
        }
        // The search's own rule: threads start at points when one ran as set-up to its end.
        var (result, strategy, isAsync) = try run(startPoints: false)
        if needsStartPoints(result, async: isAsync) { (result, strategy, _) = try run(startPoints: true) }
        if let divergence = strategy.divergence {
            throw ReplayRefusal("the schedule does not fit this program: \(divergence)")
        }
        let (given, taken) = (schedule.choices.count, result.schedule.choices.count)
        if case .stepBoundExceeded(let bound) = result.outcome, taken < given {
            throw ReplayRefusal("the schedule has \(given) decisions, more than the step bound of \(bound) (--steps)")
        }
        if taken < given {
            throw ReplayRefusal(
                "the schedule does not fit this program: it has \(given) decisions, but the program finished "
                    + "after \(taken)"
            )
        }
        if taken > given && !result.outcome.isInconclusive {
            throw ReplayRefusal(
                "the schedule does not fit this program: it ends after \(given) decisions, but the program "
                    + "took \(taken) (cut short?)"
            )
        }
        result.schedule.program = fingerprint
        result.errorsAreFailures = exploration.errorsAreFailures
        return result
    }

    /// `explore` on a dedicated thread, for async callers.
    public static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions = .init()
    ) async throws -> ExplorationReport {
        try await RaceLab.onOwnThread { try explore(exploration, options: options) }
    }

    /// `replay` on a dedicated thread, for async callers.
    public static func replay(
        _ exploration: Exploration,
        schedule: Schedule,
        options: ExplorationOptions = .init()
    ) async throws -> ExecutionResult {
        try await RaceLab.onOwnThread { try replay(exploration, schedule: schedule, options: options) }
    }
}

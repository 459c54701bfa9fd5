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

    /// Searches schedules with `options.strategy`, on `options.jobs` jobs when the search can be
    /// split (dfs with the reductions none and dpor): the coordinator in this process and the
    /// others in processes `workers` starts. The report is the one a single job makes.
    package static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions,
        workers: any ExplorationWorkers
    ) throws -> ExplorationReport {
        try explore(exploration, options: options, after: [], startPoints: false, workers: workers)
    }

    /// Searches as a parallel search does, split at `splitDepth`, with every task run in this
    /// process in the order `pick` chooses (given the number of tasks that can run, the index of
    /// the one to run): the report must be the sequential one whatever the order.
    static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions,
        splitDepth: Int,
        pick: @escaping (Int) -> Int
    ) throws -> ExplorationReport {
        try explore(exploration, options: options, after: [], startPoints: false, split: (splitDepth, pick))
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
        startedAt: UInt64 = DispatchTime.now().uptimeNanoseconds,
        workers: (any ExplorationWorkers)? = nil,
        split: (depth: Int, pick: (Int) -> Int)? = nil
    ) throws -> ExplorationReport {
        let given = options
        var options = options
        options.reduction = options.reduction(for: exploration)
        options.schedulesJobs = options.schedulesJobs(for: exploration)
        let threads = options.threads ?? exploration.defaultThreads
        let fingerprint = exploration.fingerprint(marks: options.marks)
        let start = startedAt
        var isAsync = false
        // The same search again, every thread's start a scheduling point (`needsStartPoints`).
        func restartWithStartPoints() throws -> ExplorationReport {
            try explore(
                exploration,
                options: given,
                after: prefix,
                startPoints: true,
                startedAt: start,
                workers: workers,
                split: split
            )
        }

        let made = options.makeStrategy(threads: threads)
        let strategy: any SchedulingStrategy = prefix.isEmpty ? made : PrefixedStrategy(prefix, then: made)
        var tally = ExplorationTally(options: options, start: start)
        tally.prefers = exploration.preferredFailure
        let strategyWarning: String?
        let annotate: (inout ExplorationReport) -> Void
        if prefix.isEmpty, workers != nil || split != nil,
            let parallel = ParallelExploration(
                exploration: exploration,
                options: options,
                startPoints: startPoints,
                workers: workers,
                splitDepth: split?.depth ?? ParallelExploration.defaultSplitDepth,
                pick: split?.pick
            )
        {
            switch try parallel.run(into: &tally) {
            case .restartWithStartPoints:
                return try restartWithStartPoints()
            case .done(let async, let nondeterministic):
                isAsync = async
                strategyWarning = nondeterministic ? ParallelExploration.nondeterministicWarning : nil
                annotate = { [tally] report in
                    report.reduction = options.reduction
                    report.tracesCovered = tally.traces.count
                }
            }
        } else {
            while !tally.stopsBeforeNext() {
                let setUp = DispatchTime.now().uptimeNanoseconds
                let program = try exploration.makeProgram(threads)
                isAsync = program.isAsync
                let setUpSeconds = secondsSince(setUp)
                let result = exploration.execute(
                    program,
                    strategy: strategy,
                    stepBound: tally.stepBound,
                    options: options,
                    startPoints: startPoints,
                    fingerprint: fingerprint
                )
                if !startPoints && tally.schedules == 0
                    && needsStartPoints(result, async: program.isAsync && options.schedulesJobs)
                {
                    return try restartWithStartPoints()
                }
                let analysis = DispatchTime.now().uptimeNanoseconds
                defer { tally.addAnalysis(secondsSince(analysis)) }
                guard tally.consume(ExecutionRecord(result, setUp: setUpSeconds, trace: nil), result: { $0.result! })
                else { break }
                if !strategy.endExecution(result) {
                    tally.exhaustive = true
                    break
                }
            }
            strategyWarning = strategy.warning
            annotate = { strategy.annotate(&$0) }
        }
        return report(
            tally,
            exploration: exploration,
            options: options,
            threads: threads,
            isAsync: isAsync,
            strategyWarning: strategyWarning,
            annotate: annotate
        )
    }

    /// The report of a search from its tally.
    static func report(
        _ tally: ExplorationTally,
        exploration: Exploration,
        options: ExplorationOptions,
        threads: Int,
        isAsync: Bool,
        strategyWarning: String?,
        annotate: (inout ExplorationReport) -> Void
    ) -> ExplorationReport {
        let start = tally.start
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let notInterleaved =
            tally.abandoned == nil
            ? nothingExplored(
                threads,
                tally.unscheduled,
                tally.branching,
                remedy: remedy(async: isAsync, marks: options.marks, jobs: options.schedulesJobs)
            )
            : nil
        var report = ExplorationReport(
            strategy: options.strategy,
            threads: threads,
            preemptions: options.preemptions,
            seed: options.seed,
            schedules: tally.schedules,
            exhaustive: tally.exhaustive,
            failingSchedules: tally.failing,
            failure: tally.shortest,
            elapsedSeconds: elapsed,
            warning: joinedWarnings(
                tally.warning ?? strategyWarning,
                notInterleaved
            ),
            abandoned: tally.abandoned
        )
        report.stall = tally.stall
        report.notInterleaved = notInterleaved
        report.stoppedAfterFailure = tally.stoppedAfterFailure ? options.schedulesAfterFailure : nil
        report.timing = tally.timing
        report.errorSchedules = tally.errors
        report.firstError = tally.firstError
        report.unfinishedSchedules = tally.unfinished
        report.firstUnfinished = tally.firstUnfinished
        report.stepBound = tally.stepBound
        report.stepBoundGiven = options.stepBound != nil
        report.marks = options.marks
        report.isAsync = exploration.isAsync
        report.jobsWereSteps = tally.jobsWereSteps
        report.errorsAreFailures = exploration.errorsAreFailures
        annotate(&report)
        report.firstFailingSchedule = tally.firstFailure?.schedule
        // A merged report's clock is not the shards': no time to the first failure.
        report.secondsToFirstFailure = report.mergedShards == nil ? tally.firstFailure?.seconds : nil
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
        // Without marks, the advice to add them (or to switch code already switched, as a lesson's
        // is) does not apply: say what the explorer sees instead.
        if !marks {
            return "marks are off, so its Race.window and Race.step were ignored: without them the explorer "
                + "sees only RaceLab's primitives (@RaceShared, RaceLock, RaceQueue; DispatchQueue, NSLock, ... "
                + "in code compiled with the RaceLab switch), and these threads reached none"
        }
        return "compile the code under test with the RaceLab switch (its DispatchQueue, NSLock, ... are then "
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
    ///   - describingStates: also record the state after each step in `result.states` (when the
    ///     exploration has a `describeState`, and unless it is async and each job is a step).
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
        // When each job is a step, a thread can pause inside a job on an actor that an async
        // `describeState` waits for: that would wait forever, so such a replay shows no states.
        let describing = describingStates && !(exploration.isAsync && options.schedulesJobs)
        func run(startPoints: Bool) throws -> (ExecutionResult, ReplayStrategy, isAsync: Bool) {
            let program = try exploration.makeProgram(schedule.threads)
            let strategy = ReplayStrategy(schedule)
            let result = exploration.execute(
                program,
                strategy: strategy,
                stepBound: options.stepBound ?? StepBound.beforeMeasuring + schedule.choices.count,
                options: options,
                startPoints: startPoints,
                fingerprint: fingerprint,
                states: describing ? StateLog() : nil
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

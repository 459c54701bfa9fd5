import Foundation

/// One variant's exploration (or replay of one schedule), judged against the variant's kind: a
/// buggy variant should have a failing schedule, a fixed one none. This is what `racelab explore`
/// prints for each variant, and one entry of its `--json` document.
public struct VariantExploration: Sendable, Codable, Equatable {
    /// The failing schedule: what went wrong, its steps, and the string that replays it.
    public struct Failure: Sendable, Codable, Equatable {
        /// `ExecutionOutcome.kind`: `invariant`, `error`, `deadlock`, `unfinished`, ...
        public var kind: String
        /// The outcome in one line, e.g. `invariant broken: kept 1 of 2 keys`.
        public var message: String
        /// The schedule's steps, in order.
        public var steps: [ScheduleStep]
        /// The schedule's replay string, for `racelab explore --replay`.
        public var replay: String
        /// A deadlock's threads and where each one waits.
        public var deadlock: [ThreadPosition]?
        /// Threads the program started while it ran (callbacks, tasks), beyond `threads`.
        public var spawned: [SpawnedThread]?
    }

    /// Whether the variant's schedules were searched, or one schedule replayed.
    public enum Mode: String, Sendable, Codable {
        /// The strategy searched the variant's schedules.
        case search
        /// One schedule, given by a replay string, ran.
        case replay
    }

    /// The variant's name.
    public var variant: String
    /// Whether the variant is buggy or fixed: what its verdict is judged against.
    public var kind: VariantKind
    /// Whether the schedules were searched or one schedule replayed.
    public var mode: Mode
    /// Search only: the strategy, and the bounds it ran with (`ExplorationReport`'s).
    public var strategy: ExplorationOptions.Strategy?
    /// Logical threads the program started with.
    public var threads: Int
    /// dfs and pct: the preemption bound or change points; nil for random and replay.
    public var preemptions: Int?
    /// Strategies that sample (pct, random) only.
    public var seed: UInt64?
    /// dfs only: the partial-order reduction used (`none`, `dpor`, `states`).
    public var reduction: ExplorationOptions.Reduction?
    /// `states` only: distinct states decided at, and schedules that ran on past a state already
    /// searched (see `ExplorationReport.statesSearched`, `redundantSchedules`).
    public var statesSearched: Int?
    /// See `ExplorationReport.redundantSchedules`.
    public var redundantSchedules: Int?
    /// Executions run.
    public var schedules: Int
    /// dfs only: the distinct behaviours (Mazurkiewicz traces) the schedules covered.
    public var traces: Int?
    /// dfs: every schedule within the bound ran.
    public var exhaustive: Bool
    /// Set when the search stopped on purpose after its first failing schedule: the schedules it ran
    /// after that one, looking for a shorter failure (`ExplorationReport.stoppedAfterFailure`).
    public var stoppedAfterFailure: Int?
    /// Executions that failed.
    public var failingSchedules: Int
    /// `failingSchedules / schedules`.
    public var hitRate: Double
    /// pct only: see `ExplorationReport.pctGuarantee`.
    public var pctGuarantee: Double?
    /// pct only: see `ExplorationReport.pctSteps`.
    public var pctSteps: Int?
    /// pct only: see `ExplorationReport.pctThreads`.
    public var pctThreads: Int?
    /// Wall time of the search or replay, in seconds.
    public var elapsedSeconds: Double
    /// dfs only: where the time went, by phase (`ExplorationTiming`).
    public var timing: ExplorationTiming?
    /// The shortest failing schedule found, or the replayed one when it failed.
    public var failure: Failure?
    /// Schedules in which a thread threw an error that is not the exploration's failure, and the
    /// first of them (or the replayed one): errors, no evidence either way.
    public var errorSchedules: Int?
    /// The first schedule that threw, or the replayed one.
    public var error: Failure?
    /// Schedules that did not finish within the step bound, and the bound: inconclusive.
    public var unfinishedSchedules: Int?
    /// The step bound the unfinished schedules ran into.
    public var stepBound: Int?
    /// What the search covered, in words: every schedule within the bound, or how many of them
    /// when it was not exhaustive (`scope` of the verdict line).
    public var scope: String?
    /// How much of the code ran as one step: what a race inside a step needs instead.
    public var granularity: String?
    /// What makes the figures less than they seem (see `ExplorationReport.warning`).
    public var warning: String?
    /// Search only: the threads the search never interleaved and what would give them scheduling
    /// points (`ExplorationReport.notInterleaved`). A fixed variant's search with it is NOT
    /// INTERLEAVED: it proves nothing about those threads.
    public var notInterleaved: String?
    /// No verdict: the explorer lost control of a thread, or a schedule did not finish within the
    /// step bound and no failing one was found.
    public var inconclusive = false
    /// Why the search stopped before its end (a stuck thread, a livelock); nil when it did not.
    public var stopped: String?
    /// With `inconclusive`: which thread got stuck, where, the likely cause and the fix.
    public var stall: StallDiagnosis?
    /// A buggy variant should fail, a fixed one should not.
    public var asExpected = false

    /// A search's result: `asExpected` when it found a failing schedule exactly if the variant is buggy,
    /// and no thread escaped the explorer's control.
    public init(variant: Variant, report: ExplorationReport) {
        self.init(name: variant.name, kind: variant.kind, report: report)
    }

    /// A search's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, report: ExplorationReport) {
        self.variant = name
        self.kind = kind
        mode = .search
        strategy = report.strategy
        threads = report.threads
        preemptions = report.preemptions
        seed = report.strategy.isSeeded ? report.seed : nil
        reduction = report.reduction
        statesSearched = report.statesSearched
        redundantSchedules = report.redundantSchedules
        schedules = report.schedules
        traces = report.tracesCovered
        exhaustive = report.exhaustive
        stoppedAfterFailure = report.stoppedAfterFailure
        failingSchedules = report.failingSchedules
        hitRate = report.hitRate
        pctGuarantee = report.pctGuarantee
        pctSteps = report.pctSteps
        pctThreads = report.pctThreads
        elapsedSeconds = report.elapsedSeconds
        timing = report.strategy.searchesExhaustively ? report.timing : nil
        failure = report.failure.map(Self.failure)
        errorSchedules = report.errorSchedules
        error = report.firstError.map(Self.failure)
        unfinishedSchedules = report.unfinishedSchedules
        stepBound = report.stepBound
        warning = report.warning.map { warning in report.abandoned.map { "\(warning): \($0)" } ?? warning }
        if report.unfinishedSchedules > 0 && report.abandoned == nil {
            let remedy =
                report.stepBoundGiven
                ? "--steps raises the bound" : "the bound was measured from the first schedule; --steps sets it"
            let line =
                "\(report.unfinishedSchedules) of the schedules did not finish within \(report.stepBound) "
                + (report.stepBound == 1 ? "step" : "steps")
                + " (a livelock, or a program that runs longer under them: \(remedy))"
            warning = warning.map { "\($0)\n\(line)" } ?? line
        }
        stopped = report.abandoned
        notInterleaved = report.notInterleaved
        inconclusive = report.abandoned != nil || (report.failure == nil && report.unfinishedSchedules > 0)
        stall = report.stall
        scope = Self.scope(of: report)
        if report.failure == nil && report.abandoned == nil && report.unfinishedSchedules > 0 {
            scope =
                "\(report.unfinishedSchedules) of \(report.schedules) schedules did not finish within "
                + "\(report.stepBound) steps"
        }
        granularity = Self.granularity(of: report)
        if report.notInterleaved != nil, let covered = scope {
            scope = "\(covered); some threads were never interleaved: no proof, see the warning"
        }
        asExpected = verdict == (kind == .buggy ? "FOUND" : "CLEAN")
    }

    /// What a search covered, for the verdict line.
    private static func scope(of report: ExplorationReport) -> String {
        let threads = report.threads == 1 ? "1 thread" : "\(report.threads) threads"
        switch report.strategy {
        case .dfs:
            var bound = "\(threads) with at most \(report.preemptions) preemptions"
            if let reduction = report.reduction {
                bound +=
                    reduction == .none
                    ? ", reduction none" : " up to reordering independent steps, reduction \(reduction.rawValue)"
            }
            if report.exhaustive { return "every schedule of \(bound)" }
            if report.abandoned != nil {
                return "the search stopped after \(report.schedules) of the schedules of \(bound)"
            }
            return "the schedule limit (--schedules) stopped the search after \(report.schedules) schedules of \(bound)"
        case .pct, .random:
            return "\(report.schedules) sampled schedules (\(report.strategy.rawValue)) of \(threads)"
        }
    }

    /// How much code ran as one step, and what finds a race inside one.
    private static func granularity(of report: ExplorationReport) -> String {
        let step =
            report.jobsWereSteps
            ? "each Swift concurrency job (a task's code from one suspension point to the next) ran as one step"
            : report.isAsync
                ? "code from one scheduling point (a mark, a RaceLab primitive) to the next ran as one step, awaits included"
                : "code from one scheduling point (a mark, a @RaceShared access, a RaceLab primitive) to the next ran as one step"
        return step + "; a data race inside a step is ThreadSanitizer's to find (swift test --sanitize=thread)"
    }

    /// A replay's result (of a schedule `Explorer.replay` accepted): `asExpected` when it failed
    /// exactly if the variant is buggy.
    public init(variant: Variant, replayOf result: ExecutionResult) {
        self.init(name: variant.name, kind: variant.kind, replayOf: result)
    }

    /// A replay's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, replayOf result: ExecutionResult) {
        self.variant = name
        self.kind = kind
        mode = .replay
        threads = result.schedule.threads
        schedules = 1
        exhaustive = false
        failingSchedules = result.isFailure ? 1 : 0
        hitRate = Double(failingSchedules)
        elapsedSeconds = 0
        failure = result.isFailure ? Self.failure(result) : nil
        errorSchedules = result.isError ? 1 : 0
        error = result.isError ? Self.failure(result) : nil
        scope = "the one schedule replayed"
        if result.outcome.isInconclusive {
            inconclusive = true
            warning = result.outcome.summary
            stall = result.stall
        }
        if case .stepBoundExceeded(let bound) = result.outcome {
            unfinishedSchedules = 1
            stepBound = bound
        }
        asExpected = verdict == (kind == .buggy ? "REPRODUCED" : "CLEAN")
    }

    private static func failure(_ result: ExecutionResult) -> Failure {
        var deadlock: [ThreadPosition]?
        if case .deadlock(let positions) = result.outcome { deadlock = positions }
        return Failure(
            kind: result.outcome.kind,
            message: result.outcome.summary,
            steps: result.steps,
            replay: result.schedule.replayString,
            deadlock: deadlock,
            spawned: result.spawned.isEmpty ? nil : result.spawned
        )
    }

    /// Explores `variant` with `options`, or replays `schedule` when one is given.
    ///
    /// - Returns: nil when the variant declares no exploration.
    /// - Throws: `ReplayRefusal` when `schedule` does not fit the variant (nothing is reported about
    ///   it); what the exploration's set-up threw (a temporary folder it could not create, say).
    public static func run(
        _ variant: Variant,
        options: ExplorationOptions,
        replay schedule: Schedule? = nil
    ) throws
        -> VariantExploration?
    {
        guard let exploration = variant.exploration else { return nil }
        if let schedule {
            let result = try Explorer.replay(exploration, schedule: schedule, options: options)
            return VariantExploration(variant: variant, replayOf: result)
        }
        return VariantExploration(variant: variant, report: try Explorer.explore(exploration, options: options))
    }

    /// Explores `variant` with `options` on `workers` as well as in this process (see
    /// `ExplorationOptions.jobs`).
    ///
    /// - Returns: nil when the variant declares no exploration.
    package static func run(
        _ variant: Variant,
        options: ExplorationOptions,
        workers: any ExplorationWorkers
    ) throws
        -> VariantExploration?
    {
        guard let exploration = variant.exploration else { return nil }
        let report = try Explorer.explore(exploration, options: options, workers: workers)
        return VariantExploration(variant: variant, report: report)
    }

    /// The verdict in one word or a few: FOUND or NOT FOUND for a buggy variant's search,
    /// REPRODUCED or NOT REPRODUCED for its replay, CLEAN or FAILED for a fixed variant, and
    /// CLEAN, NOT EXHAUSTIVE for a fixed variant's search that did not run every schedule within
    /// the bound, NOT INTERLEAVED for one in which threads were never interleaved (one schedule, or
    /// threads that ran from their start to their end as one step). No verdict on the bug: ERROR when threads threw errors that are not the
    /// exploration's failure, INCONCLUSIVE when the explorer lost control of a thread or a schedule
    /// did not finish within the step bound (and nothing failed).
    public var verdict: String {
        if inconclusive { return "INCONCLUSIVE" }
        if failure == nil && (errorSchedules ?? 0) > 0 { return "ERROR" }
        switch (kind, failure != nil) {
        case (.buggy, true): return mode == .replay ? "REPRODUCED" : "FOUND"
        case (.buggy, false): return mode == .replay ? "NOT REPRODUCED" : "NOT FOUND"
        case (.fixed, false):
            if mode == .search && notInterleaved != nil { return "NOT INTERLEAVED" }
            return mode == .search && !exhaustive ? "CLEAN, NOT EXHAUSTIVE" : "CLEAN"
        case (.fixed, true): return "FAILED"
        }
    }

    /// Whether the verdict says something about the bug (ERROR, INCONCLUSIVE, CLEAN, NOT
    /// EXHAUSTIVE and NOT INTERLEAVED do not): an unexpected one is evidence, the others are not.
    public var isConclusive: Bool {
        !["ERROR", "INCONCLUSIVE", "CLEAN, NOT EXHAUSTIVE", "NOT INTERLEAVED"].contains(verdict)
    }
}

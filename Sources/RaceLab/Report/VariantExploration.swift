import Foundation

/// One variant's exploration (or replay of one schedule), judged against the variant's kind: a
/// buggy variant should have a failing schedule, a fixed one none. This is what `racelab explore`
/// prints for each variant, and one entry of its `--json` document.
public struct VariantExploration: Sendable, Codable, Equatable {
    /// The failing schedule: what went wrong, its steps, and the string that replays it.
    public struct Failure: Sendable, Codable, Equatable {
        /// `ExecutionOutcome.kind`: `invariant`, `error`, `deadlock`, `livelock`, ...
        public var kind: String
        /// The outcome in one line, e.g. `invariant broken: kept 1 of 2 keys`.
        public var message: String
        public var steps: [ScheduleStep]
        /// The schedule's replay string, for `racelab explore --replay`.
        public var replay: String
        /// A deadlock's threads and where each one waits.
        public var deadlock: [ThreadPosition]?
        /// Threads the program started while it ran (callbacks, tasks), beyond `threads`.
        public var spawned: [SpawnedThread]?
    }

    /// The variant's name.
    public var variant: String
    public var kind: VariantKind
    /// `search` or `replay`.
    public var mode: String
    /// Search only: the strategy's name, and the bounds it ran with (`ExplorationReport`'s).
    public var strategy: String?
    public var threads: Int
    public var preemptions: Int?
    /// pct and random only.
    public var seed: UInt64?
    /// dfs only: the partial-order reduction used (`none`, `dpor`, `states`).
    public var reduction: String?
    /// `states` only: distinct states decided at, and schedules that ran on past a state already
    /// searched (see `ExplorationReport.statesSearched`, `redundantSchedules`).
    public var statesSearched: Int?
    public var redundantSchedules: Int?
    public var schedules: Int
    /// dfs only: the distinct behaviours (Mazurkiewicz traces) the schedules covered.
    public var traces: Int?
    public var exhaustive: Bool
    /// Set when the search stopped on purpose after its first failing schedule: the schedules it ran
    /// after that one, looking for a shorter failure (`ExplorationReport.stoppedAfterFailure`).
    public var stoppedAfterFailure: Int?
    public var failingSchedules: Int
    public var hitRate: Double
    public var pctGuarantee: Double?
    public var pctSteps: Int?
    public var pctThreads: Int?
    public var elapsedSeconds: Double
    /// dfs only: where the time went, by phase (`ExplorationTiming`).
    public var timing: ExplorationTiming?
    /// The shortest failing schedule found, or the replayed one when it failed.
    public var failure: Failure?
    /// Replay only: the schedule did not fit the variant.
    public var diverged: Bool?
    /// What makes the figures less than they seem (see `ExplorationReport.warning`).
    public var warning: String?
    /// The explorer lost control of a thread: no verdict.
    public var inconclusive = false
    /// With `inconclusive`: which thread got stuck, where, the likely cause and the fix.
    public var stall: StallDiagnosis?
    /// A buggy variant should fail, a fixed one should not.
    public var asExpected: Bool

    /// A search's result: `asExpected` when it found a failing schedule exactly if the variant is buggy,
    /// and no thread escaped the explorer's control.
    public init(variant: Variant, report: ExplorationReport) {
        self.init(name: variant.name, kind: variant.kind, report: report)
    }

    /// A search's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, report: ExplorationReport) {
        self.variant = name
        self.kind = kind
        mode = "search"
        strategy = report.strategy.rawValue
        threads = report.threads
        preemptions = report.preemptions
        seed = report.strategy == .dfs ? nil : report.seed
        reduction = report.reduction?.rawValue
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
        timing = report.strategy == .dfs ? report.timing : nil
        failure = report.failure.map(Self.failure)
        warning = report.warning.map { warning in report.abandoned.map { "\(warning): \($0)" } ?? warning }
        inconclusive = report.abandoned != nil
        stall = report.stall
        asExpected = !inconclusive && (kind == .buggy) == (report.failure != nil)
    }

    /// A replay's result: `asExpected` when the schedule fitted the variant and failed exactly if the
    /// variant is buggy.
    public init(variant: Variant, replayOf result: ExecutionResult, diverged: Bool) {
        self.init(name: variant.name, kind: variant.kind, replayOf: result, diverged: diverged)
    }

    /// A replay's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, replayOf result: ExecutionResult, diverged: Bool) {
        self.variant = name
        self.kind = kind
        mode = "replay"
        threads = result.schedule.threads
        schedules = 1
        exhaustive = false
        failingSchedules = result.outcome.isFailure ? 1 : 0
        hitRate = Double(failingSchedules)
        elapsedSeconds = 0
        failure = result.outcome.isFailure ? Self.failure(result) : nil
        self.diverged = diverged
        if case .stuck = result.outcome {
            inconclusive = true
            warning = result.outcome.summary
            stall = result.stall
        }
        if diverged { warning = "the schedule did not fit this variant; the run went on without preemptions" }
        asExpected = !diverged && !inconclusive && (kind == .buggy) == result.outcome.isFailure
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
    /// - Throws: what the exploration's set-up threw (a temporary folder it could not create, say).
    public static func run(
        _ variant: Variant,
        options: ExplorationOptions,
        replay schedule: Schedule? = nil
    ) throws
        -> VariantExploration?
    {
        guard let exploration = variant.exploration else { return nil }
        if let schedule {
            let (result, diverged) = try Explorer.replay(exploration, schedule: schedule, options: options)
            return VariantExploration(variant: variant, replayOf: result, diverged: diverged)
        }
        return VariantExploration(variant: variant, report: try Explorer.explore(exploration, options: options))
    }

    /// The verdict in one word or two: FOUND or NOT FOUND for a buggy variant's search, REPRODUCED or
    /// NOT REPRODUCED for its replay, CLEAN or FAILED for a fixed variant, INCONCLUSIVE when the
    /// explorer lost control of a thread.
    public var verdict: String {
        if inconclusive { return "INCONCLUSIVE" }
        switch (kind, failure != nil) {
        case (.buggy, true): return mode == "replay" ? "REPRODUCED" : "FOUND"
        case (.buggy, false): return mode == "replay" ? "NOT REPRODUCED" : "NOT FOUND"
        case (.fixed, false): return "CLEAN"
        case (.fixed, true): return "FAILED"
        }
    }
}

import Foundation

/// One variant's exploration (or replay of one schedule), judged against the variant's kind: a
/// buggy variant should have a failing schedule, a fixed one none. This is what `racelab explore`
/// prints for each variant, and one entry of its `--json` document.
public struct VariantExploration: Sendable, Equatable {
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
        /// For a broken invariant: the step at which the code first saw the failure, as that
        /// execution recorded it (`Race.failureSeen(_:)`); nil when its code said nothing.
        public var failureSeen: FailureSeen?
    }

    /// Whether the variant's schedules were searched, or one schedule replayed.
    public enum Mode: String, Sendable, Codable {
        /// The strategy searched the variant's schedules.
        case search
        /// One schedule, given by a replay string, ran.
        case replay
    }

    /// What ran: the search's report, or the one execution a replay ran.
    public enum Run: Sendable, Codable, Equatable {
        /// The strategy searched the variant's schedules.
        case search(ExplorationReport)
        /// One schedule, given by a replay string (of a schedule `Explorer.replay` accepted), ran.
        case replay(ExecutionResult)
    }

    /// The variant's name.
    public var variant: String
    /// Whether the variant is buggy or fixed: what its verdict is judged against.
    public var kind: VariantKind
    /// What ran; every figure of the exploration is read from it.
    public var run: Run

    /// Whether the schedules were searched or one schedule replayed.
    public var mode: Mode {
        switch run {
        case .search: .search
        case .replay: .replay
        }
    }

    /// The search's report; nil for a replay.
    public var report: ExplorationReport? {
        if case .search(let report) = run { return report }
        return nil
    }

    /// Logical threads the program started with.
    public var threads: Int {
        switch run {
        case .search(let report): report.threads
        case .replay(let result): result.schedule.threads
        }
    }

    /// Executions run: the search's, or the one replayed.
    public var schedules: Int { report?.schedules ?? 1 }

    /// Executions that failed.
    public var failingSchedules: Int { report?.failingSchedules ?? (failure == nil ? 0 : 1) }

    /// The shortest failing schedule found, or the replayed one when it failed.
    public var failure: Failure? {
        switch run {
        case .search(let report): report.failure.map(Self.failure)
        case .replay(let result): result.isFailure ? Self.failure(result) : nil
        }
    }

    /// Schedules in which a thread threw an error that is not the exploration's failure: errors, no
    /// evidence either way.
    public var errorSchedules: Int { report?.errorSchedules ?? (error == nil ? 0 : 1) }

    /// The first schedule that threw an error that is not the failure, or the replayed one.
    public var error: Failure? {
        switch run {
        case .search(let report): report.firstError.map(Self.failure)
        case .replay(let result): result.isError ? Self.failure(result) : nil
        }
    }

    /// Schedules that did not finish within the step bound, and the bound they ran into: inconclusive.
    var unfinished: (schedules: Int, stepBound: Int)? {
        switch run {
        case .search(let report): (report.unfinishedSchedules, report.stepBound)
        case .replay(let result):
            if case .stepBoundExceeded(let bound) = result.outcome { (1, bound) } else { nil }
        }
    }

    /// With `inconclusive`: which thread got stuck, where, the likely cause and the fix.
    public var stall: StallDiagnosis? {
        switch run {
        case .search(let report): report.stall
        case .replay(let result): result.outcome.isInconclusive ? result.stall : nil
        }
    }

    /// What makes the figures less than they seem, one warning a line: the search's warnings (see
    /// `ExplorationReport.warning`) and schedules that did not finish, or why a replay is
    /// inconclusive.
    public var warning: String? {
        switch run {
        case .search(let report):
            var warning = report.warning.map { warning in report.abandoned.map { "\(warning): \($0)" } ?? warning }
            if report.unfinishedSchedules > 0 && report.abandoned == nil {
                let remedy =
                    report.stepBoundGiven
                    ? "--steps raises the bound" : "the bound was measured from the first schedule; --steps sets it"
                let line =
                    "\(grouped(report.unfinishedSchedules)) of the schedules did not finish within \(grouped(report.stepBound)) "
                    + (report.stepBound == 1 ? "step" : "steps")
                    + " (a livelock, or a program that runs longer under them: \(remedy))"
                warning = warning.map { "\($0)\n\(line)" } ?? line
            }
            return warning
        case .replay(let result):
            return result.outcome.isInconclusive ? result.outcome.summary : nil
        }
    }

    /// No verdict: the explorer lost control of a thread, or a schedule did not finish within the
    /// step bound and no failing one was found.
    public var inconclusive: Bool {
        switch run {
        case .search(let report):
            report.abandoned != nil || (report.failure == nil && report.unfinishedSchedules > 0)
        case .replay(let result): result.outcome.isInconclusive
        }
    }

    /// What the search covered, in words: every schedule within the bound, or how many of them
    /// when it was not exhaustive (`scope` of the verdict line).
    public var scope: String? {
        guard case .search(let report) = run else { return "the one schedule replayed" }
        return Self.qualified(Self.scope(of: report), by: report)
    }

    /// What the search covered, in plain words, as the verdict line says it (`scope` is the precise
    /// form `--json` keeps): `every schedule of 2 threads and the work they start, with at most 2
    /// preemptions`; a reduction other than none is named by what it does.
    public var coverage: String? {
        guard case .search(let report) = run else { return "the one schedule replayed" }
        return Self.qualified(Self.coverage(of: report), by: report)
    }

    /// A search's covered ground, `what`, unless schedules did not finish (then that is what the
    /// verdict rests on), and marked when some threads were never interleaved.
    private static func qualified(_ what: String, by report: ExplorationReport) -> String {
        var what = what
        if report.failure == nil && report.abandoned == nil && report.unfinishedSchedules > 0 {
            what =
                "\(grouped(report.unfinishedSchedules)) of \(grouped(report.schedules)) schedules did not finish within "
                + "\(grouped(report.stepBound)) steps"
        }
        if report.notInterleaved != nil {
            what += "; some threads were never interleaved: no proof, see the warning"
        }
        return what
    }

    /// Search only: how much of the code ran as one step, and what a race inside a step needs instead.
    public var granularity: String? {
        report.map(Self.granularity)
    }

    /// A buggy variant should fail, a fixed one should not.
    public var asExpected: Bool {
        verdict == (kind == .fixed ? "CLEAN" : mode == .replay ? "REPRODUCED" : "FOUND")
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
            return searched(report, every: "schedule", of: bound)
        case .pct, .random:
            return "\(grouped(report.schedules)) sampled schedules (\(report.strategy.rawValue)) of \(threads)"
        }
    }

    /// A bounded search's ground: every `every` of `bound`, or where it stopped.
    private static func searched(_ report: ExplorationReport, every: String, of bound: String) -> String {
        if report.exhaustive { return "every \(every) of \(bound)" }
        if report.abandoned != nil {
            return "the search stopped after \(grouped(report.schedules)) of the schedules of \(bound)"
        }
        return
            "the schedule limit (--schedules) stopped the search after \(grouped(report.schedules)) schedules of \(bound)"
    }

    /// What a search covered, in plain words, for the verdict line.
    private static func coverage(of report: ExplorationReport) -> String {
        let threads = report.threadsAndTheirWork
        switch report.strategy {
        case .dfs:
            let bound = "\(threads), with " + report.preemptionBound + (report.reductionInWords.map { "; \($0)" } ?? "")
            return searched(report, every: "schedule", of: bound)
        case .pct, .random:
            return "\(grouped(report.schedules)) sampled schedules (\(report.strategy.rawValue)) of \(threads)"
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

    private static func failure(_ result: ExecutionResult) -> Failure {
        var deadlock: [ThreadPosition]?
        if case .deadlock(let positions) = result.outcome { deadlock = positions }
        return Failure(
            kind: result.outcome.kind,
            message: result.outcome.summary,
            steps: result.steps,
            replay: result.schedule.replayString,
            deadlock: deadlock,
            spawned: result.spawned.isEmpty ? nil : result.spawned,
            // What was seen is about the invariant: another failure (a deadlock) is not marked by it.
            failureSeen: result.outcome.kind == "invariant" ? result.failureSeen : nil
        )
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
        let failed = failure != nil
        if !failed && errorSchedules > 0 { return "ERROR" }
        switch (kind, failed) {
        case (.buggy, true): return mode == .replay ? "REPRODUCED" : "FOUND"
        case (.buggy, false): return mode == .replay ? "NOT REPRODUCED" : "NOT FOUND"
        case (.fixed, false):
            guard let report else { return "CLEAN" }
            if report.notInterleaved != nil { return "NOT INTERLEAVED" }
            return report.exhaustive ? "CLEAN" : "CLEAN, NOT EXHAUSTIVE"
        case (.fixed, true): return "FAILED"
        }
    }

    /// Whether the verdict says something about the bug (ERROR, INCONCLUSIVE, CLEAN, NOT
    /// EXHAUSTIVE and NOT INTERLEAVED do not): an unexpected one is evidence, the others are not.
    public var isConclusive: Bool {
        !["ERROR", "INCONCLUSIVE", "CLEAN, NOT EXHAUSTIVE", "NOT INTERLEAVED"].contains(verdict)
    }
}

extension VariantExploration {
    /// A search's result: `asExpected` when it found a failing schedule exactly if the variant is buggy,
    /// and no thread escaped the explorer's control.
    public init(variant: Variant, report: ExplorationReport) {
        self.init(variant: variant.name, kind: variant.kind, run: .search(report))
    }

    /// A search's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, report: ExplorationReport) {
        self.init(variant: name, kind: kind, run: .search(report))
    }

    /// A replay's result (of a schedule `Explorer.replay` accepted): `asExpected` when it failed
    /// exactly if the variant is buggy.
    public init(variant: Variant, replayOf result: ExecutionResult) {
        self.init(variant: variant.name, kind: variant.kind, run: .replay(result))
    }

    /// A replay's result for a variant known by its name and kind.
    package init(name: String, kind: VariantKind, replayOf result: ExecutionResult) {
        self.init(variant: name, kind: kind, run: .replay(result))
    }
}

extension ExplorationReport {
    /// `2 threads and the work they start` (`2 tasks …` for async bodies): the threads the search
    /// ran, counting the queue blocks and tasks they start, which the explorer runs as threads of their own.
    package var threadsAndTheirWork: String {
        threads == 1 ? "1 \(unitName) and the work it starts" : "\(threads) \(unitName)s and the work they start"
    }

    /// What the search's units were: `task` when they ran as Swift tasks (async bodies), `thread` otherwise.
    package var unitName: String {
        isAsync || jobsWereSteps ? "task" : "thread"
    }

    /// Whether the search was bounded by preemptions, so that `preemptionBound` says what it covered.
    package var isPreemptionBounded: Bool { strategy.boundsPreemptions }

    /// `at most 2 preemptions`: the bound of a dfs search.
    package var preemptionBound: String {
        "at most \(preemptions) " + (preemptions == 1 ? "preemption" : "preemptions")
    }

    /// Whether a reduction other than none chose the schedules: a schedule that only reorders
    /// independent steps of one that ran (same outcome) may then be skipped.
    package var reduced: Bool {
        reduction.map { $0 != .none } ?? false
    }

    /// What the reduction skips, in plain words; nil for none (and for pct and random).
    package var reductionInWords: String? {
        switch reduction {
        case .dpor, .automatic: Self.reorderingsSkipped
        case .states: Self.reorderingsSkipped + "; a state already searched is not searched again"
        case .some(.none), nil: nil
        }
    }

    /// What any reduction skips: schedules that differ from one that ran only in the order of
    /// independent steps, which cannot change the outcome.
    static let reorderingsSkipped = "reorderings of independent steps (same outcome) skipped"

    /// `6 schedules ran (all with at most 2 preemptions), 4 failed`: what ran, what part of the
    /// schedules within the bound that is, how many failed, numbers grouped by thousands. With
    /// `coverageSaid` (a line nearby says what an exhaustive search covered) that part is left out.
    package func ranAndFailed(coverageSaid: Bool = false) -> String {
        let scope =
            exhaustive
            ? coverageSaid
                ? ""
                : reduced
                    ? " (\(preemptionBound), reorderings of independent steps skipped)"
                    : " (all with \(preemptionBound))"
            : abandoned != nil
                ? stall != nil ? " (stopped: a thread got stuck)" : " (stopped: a livelock)"
                : stoppedAfterFailure.map {
                    $0 == 0
                        ? " (stopped at the first failing schedule)"
                        : " (stopped \(grouped($0)) " + ($0 == 1 ? "schedule" : "schedules")
                            + " after the first failing one, the shortest kept)"
                }
                    ?? (strategy.searchesExhaustively ? " (schedule limit reached, not exhaustive)" : "")
        return "\(grouped(schedules)) " + (schedules == 1 ? "schedule" : "schedules") + " ran\(scope), "
            + "\(grouped(failingSchedules)) failed"
    }
}

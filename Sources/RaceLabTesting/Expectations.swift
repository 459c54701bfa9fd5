#if canImport(Testing)
import RaceLab
import Testing

// Swift Testing checks of your own code: each runs the runner or the explorer and, when the verdict
// is not the one asked for, records one issue at the caller's line whose comment is the report
// `racelab` prints, followed by the line that re-runs it (a seed, or a schedule's replay string).

/// Runs `variant` under the stress runner and records an issue unless no trial shows an anomaly.
///
/// The variant is judged as `.fixed`, whatever it declares: an anomaly in any trial is FAILED. A
/// clean run whose trials reached no `Race.window` stays a pass (real threads did run the code),
/// and records a warning saying so, with the trials and iterations it ran.
///
/// - Parameters:
///   - variant: the code under test: its fresh state, operation and check.
///   - workload: trials × iterations, all of which run; the variant's own, or 100 × 500, when nil.
///   - seed: the noise seed; else `.raceLab(seed:)`, else `RACELAB_SEED`, else a new one (printed).
///   - noise: seeded noise at `Race.window` marks.
///   - sourceLocation: where the issue is recorded; the caller's line by default.
/// - Returns: the report, to assert more on.
@discardableResult
public func expectClean(
    _ variant: Variant,
    workload: Workload? = nil,
    seed: UInt64? = nil,
    noise: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VariantReport {
    let stress = await RaceLabCheck.stress(variant, as: .fixed, workload: workload, seed: seed, noise: noise)
    record(stress, sourceLocation: sourceLocation)
    return stress.report
}

/// Runs `variant` under the stress runner until a trial shows the bug, and records an issue if
/// none did within `timeLimit`: the form for a test that proves a check can see a bug (a check that
/// never fails is no check).
///
/// A time limit rather than a trial count, because a bug that shows in one trial of fifty on an
/// idle machine may need many more on a loaded CI runner. The variant is judged as `.buggy`; the
/// report's `firstAnomalousTrial` says how many trials it took. A run that reached no
/// `Race.window` says so in the message.
///
/// - Parameters:
///   - variant: the code under test: its fresh state, operation and check.
///   - workload: the iterations of each trial, and the trials that run before the time limit can
///     stop the search (more run until the limit); nil for the variant's iterations (or 500).
///   - seed: as `expectClean`.
///   - noise: as `expectClean`.
///   - timeLimit: no trial starts after this (at least one runs).
///   - sourceLocation: where the issue is recorded; the caller's line by default.
/// - Returns: the report.
@discardableResult
public func expectReproduced(
    _ variant: Variant,
    workload: Workload? = nil,
    seed: UInt64? = nil,
    noise: Bool = true,
    timeLimit: Duration = .seconds(5),
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VariantReport {
    let stress = await RaceLabCheck.stress(
        variant,
        as: .buggy,
        workload: workload,
        seed: seed,
        noise: noise,
        timeLimit: timeLimit
    )
    record(stress, sourceLocation: sourceLocation)
    return stress.report
}

/// Explores `exploration`'s schedules to the end and records an issue if one breaks its invariant,
/// with the failing schedule as a timeline and its replay string.
///
/// A search that explored nothing is no pass: when there was one schedule only, or a thread ran
/// from its start to its end while no other could be chosen, the issue names the threads and what
/// would give them scheduling points in this exploration.
///
/// Schedules pinned with `.raceLabReplay(_:)` or `RACELAB_REPLAY` run first: one that fails is
/// reported without searching.
///
/// - Returns: the search (or the pinned replay that failed); nil when the exploration could not run.
@discardableResult
public func expectNoFailingSchedule(
    _ exploration: Exploration,
    options: ExplorationOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VariantExploration? {
    let search = await RaceLabCheck.explore(exploration, options: options, wantFailure: false)
    record(search, sourceLocation: sourceLocation)
    return search.report
}

/// Explores `exploration`'s schedules and records an issue unless one breaks its invariant.
///
/// The search stops 100 schedules after the first failing one and returns the shortest failure
/// seen; set `options.schedulesAfterFailure` to search longer (`Int.max`: to the end) or to stop at
/// the first.
///
/// Pinned schedules (`.raceLabReplay(_:)`, `RACELAB_REPLAY`) run first; one that fails is the
/// answer, and no search runs.
///
/// - Returns: the failing schedule (replay it with `Explorer.replay`), or nil.
@discardableResult
public func expectFailingSchedule(
    _ exploration: Exploration,
    options: ExplorationOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Schedule? {
    let search = await RaceLabCheck.explore(exploration, options: options, wantFailure: true)
    record(search, sourceLocation: sourceLocation)
    return search.failingSchedule
}

private func record(_ outcome: some RaceLabCheck.Outcome, sourceLocation: SourceLocation) {
    if let attachment = outcome.attachment, !outcome.failures.isEmpty {
        attach(attachment.report, named: attachment.name, sourceLocation: sourceLocation)
    }
    for failure in outcome.failures {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
    for warning in outcome.warnings {
        recordWarning(warning, sourceLocation: sourceLocation)
    }
}

/// A warning where the toolchain records issues of warning severity (Swift 6.3 and later): it shows
/// in the test's results and fails nothing. Older toolchains print it, in the form compilers use.
private func recordWarning(_ warning: String, sourceLocation: SourceLocation) {
    #if compiler(>=6.3)
    Issue.record(Comment(rawValue: warning), severity: .warning, sourceLocation: sourceLocation)
    #else
    print("\(sourceLocation.fileID):\(sourceLocation.line): warning: \(warning)")
    #endif
}

/// A failed check's report as a JSON attachment, where the toolchain has attachments (Swift 6.2 and later); they
/// are kept when the run asks for them (`swift test --attachments-path DIR`).
private func attach(_ report: any Encodable, named name: String, sourceLocation: SourceLocation) {
    #if compiler(>=6.2)
    if let json = RaceLabCheck.json(report) {
        Attachment.record(json, named: name, sourceLocation: sourceLocation)
    }
    #endif
}
#endif

#if canImport(Testing)
import RaceLab
import Testing

// Swift Testing checks of your own code: each runs the runner or the explorer and, when the verdict
// is not the one asked for, records one issue at the caller's line whose comment is the report
// `racelab` prints, followed by the line that re-runs it (a seed, or a schedule's replay string).

/// Runs `variant` under the stress runner and records an issue unless no trial shows an anomaly.
///
/// The variant is judged as `.fixed`, whatever it declares: an anomaly in any trial is FAILED.
///
/// - Parameters:
///   - workload: trials × iterations; the variant's own, or 100 × 500, when nil.
///   - seed: the noise seed; else `.raceLab(seed:)`, else `RACELAB_SEED`, else a new one (printed).
///   - noise: seeded noise at `Race.window` marks.
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

/// Runs `variant` under the stress runner and records an issue unless at least one trial shows the
/// bug: the form for a test that proves a check can see a bug (a check that never fails is no check).
///
/// The variant is judged as `.buggy`. A run that reached no `Race.window` says so in the message.
///
/// - Parameters: as `expectClean`.
/// - Returns: the report.
@discardableResult
public func expectReproduced(
    _ variant: Variant,
    workload: Workload? = nil,
    seed: UInt64? = nil,
    noise: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VariantReport {
    let stress = await RaceLabCheck.stress(variant, as: .buggy, workload: workload, seed: seed, noise: noise)
    record(stress, sourceLocation: sourceLocation)
    return stress.report
}

/// Explores `exploration`'s schedules and records an issue if one breaks its invariant, with the
/// failing schedule as a timeline and its replay string.
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

private func record(_ stress: RaceLabCheck.Stress, sourceLocation: SourceLocation) {
    if !stress.failures.isEmpty {
        attach(stress.report, named: "\(stress.report.name).json", sourceLocation: sourceLocation)
    }
    for failure in stress.failures {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

private func record(_ search: RaceLabCheck.Search, sourceLocation: SourceLocation) {
    if let report = search.report, !search.failures.isEmpty {
        attach(report, named: "exploration.json", sourceLocation: sourceLocation)
    }
    for failure in search.failures {
        Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
    }
}

/// A failed check's report as a JSON attachment, where the toolchain has attachments (Swift 6.2 and later); they
/// are kept when the run asks for them (`swift test --attachments-path DIR`).
private func attach(_ report: some Encodable, named name: String, sourceLocation: SourceLocation) {
    #if compiler(>=6.2)
    if let json = RaceLabCheck.json(report) {
        Attachment.record(json, named: name, sourceLocation: sourceLocation)
    }
    #endif
}
#endif

#if canImport(XCTest)
import RaceLab
import XCTest

// The XCTest twins of `expectClean`, `expectReproduced`, `expectNoFailingSchedule` and
// `expectFailingSchedule`: the same checks and messages, failing with `XCTFail` at `file:line`.
// Pin a seed or schedules with `RACELAB_SEED` / `RACELAB_REPLAY` (XCTest has no traits).

/// Fails unless no trial of `variant` shows an anomaly (see `expectClean`). A pass that reached no
/// `Race.window` prints a warning at `file:line` (XCTest has no warning issues).
@discardableResult
public func assertClean(
    _ variant: Variant,
    workload: Workload? = nil,
    seed: UInt64? = nil,
    noise: Bool = true,
    file: StaticString = #filePath,
    line: UInt = #line
) async -> VariantReport {
    let stress = await RaceLabCheck.stress(variant, as: .fixed, workload: workload, seed: seed, noise: noise)
    fail(stress, file: file, line: line)
    return stress.report
}

/// Fails unless a trial of `variant` shows its bug within `timeLimit` (see `expectReproduced`).
@discardableResult
public func assertReproduced(
    _ variant: Variant,
    workload: Workload? = nil,
    seed: UInt64? = nil,
    noise: Bool = true,
    timeLimit: Duration = .seconds(5),
    file: StaticString = #filePath,
    line: UInt = #line
) async -> VariantReport {
    let stress = await RaceLabCheck.stress(
        variant,
        as: .buggy,
        workload: workload,
        seed: seed,
        noise: noise,
        timeLimit: timeLimit
    )
    fail(stress, file: file, line: line)
    return stress.report
}

/// Fails if a schedule of `exploration` breaks its invariant, or if nothing was explored (see
/// `expectNoFailingSchedule`).
@discardableResult
public func assertNoFailingSchedule(
    _ exploration: Exploration,
    options: ExplorationOptions = .init(),
    file: StaticString = #filePath,
    line: UInt = #line
) async -> VariantExploration? {
    let search = await RaceLabCheck.explore(exploration, options: options, wantFailure: false)
    fail(search, file: file, line: line)
    return search.report
}

/// Fails unless a schedule of `exploration` breaks its invariant; returns the shortest failing one
/// seen (see `expectFailingSchedule`, which stops the search as this does).
@discardableResult
public func assertFailingSchedule(
    _ exploration: Exploration,
    options: ExplorationOptions = .init(),
    file: StaticString = #filePath,
    line: UInt = #line
) async -> Schedule? {
    let search = await RaceLabCheck.explore(exploration, options: options, wantFailure: true)
    fail(search, file: file, line: line)
    return search.failingSchedule
}

/// Fails at `file:line` once per failure of `outcome`, and prints its warnings there (XCTest has no
/// warning issues).
private func fail(_ outcome: some RaceLabCheck.Outcome, file: StaticString, line: UInt) {
    for failure in outcome.failures { XCTFail(failure, file: file, line: line) }
    for warning in outcome.warnings { print("\(file):\(line): warning: \(warning)") }
}
#endif

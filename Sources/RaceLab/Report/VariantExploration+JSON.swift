/// One entry of `racelab explore --json`: the variant, its verdict's inputs and the figures of what
/// ran, read from the search's report or the replayed execution. A figure a mode or strategy does not
/// have is left out (`seed` of dfs, `traces` of pct, `strategy` of a replay).
extension VariantExploration: Encodable {
    private enum CodingKeys: String, CodingKey {
        case variant, kind, mode, threads, unit, schedules, exhaustive, failingSchedules, hitRate, elapsedSeconds
        case failure, errorSchedules, error, unfinishedSchedules, stepBound, scope, warning, inconclusive
        case stall, asExpected
        // Search only.
        case strategy, preemptions, seed, reduction, statesSearched, redundantSchedules, traces
        case stoppedAfterFailure, pctGuarantee, pctSteps, pctThreads, timing, granularity, notInterleaved
        case stopped, mergedShards
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(variant, forKey: .variant)
        try container.encode(kind, forKey: .kind)
        try container.encode(mode, forKey: .mode)
        try container.encode(threads, forKey: .threads)
        // What a thread is here, as the text report says it: `task` for async bodies.
        try container.encode(unitName, forKey: .unit)
        try container.encode(schedules, forKey: .schedules)
        try container.encodeIfPresent(failure, forKey: .failure)
        try container.encode(failingSchedules, forKey: .failingSchedules)
        try container.encode(errorSchedules, forKey: .errorSchedules)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(unfinished?.schedules, forKey: .unfinishedSchedules)
        try container.encodeIfPresent(unfinished?.stepBound, forKey: .stepBound)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(warning, forKey: .warning)
        try container.encodeIfPresent(stall, forKey: .stall)
        try container.encode(inconclusive, forKey: .inconclusive)
        try container.encode(asExpected, forKey: .asExpected)
        guard case .search(let report) = run else {
            try container.encode(false, forKey: .exhaustive)
            try container.encode(Double(failingSchedules), forKey: .hitRate)
            try container.encode(0.0, forKey: .elapsedSeconds)
            return
        }
        try container.encode(report.strategy, forKey: .strategy)
        try container.encode(report.preemptions, forKey: .preemptions)
        try container.encodeIfPresent(report.strategy.isSeeded ? report.seed : nil, forKey: .seed)
        try container.encodeIfPresent(report.reduction, forKey: .reduction)
        try container.encodeIfPresent(report.statesSearched, forKey: .statesSearched)
        try container.encodeIfPresent(report.redundantSchedules, forKey: .redundantSchedules)
        try container.encodeIfPresent(report.tracesCovered, forKey: .traces)
        try container.encode(report.exhaustive, forKey: .exhaustive)
        try container.encodeIfPresent(report.stoppedAfterFailure, forKey: .stoppedAfterFailure)
        try container.encode(report.hitRate, forKey: .hitRate)
        try container.encodeIfPresent(report.pctGuarantee, forKey: .pctGuarantee)
        try container.encodeIfPresent(report.pctSteps, forKey: .pctSteps)
        try container.encodeIfPresent(report.pctThreads, forKey: .pctThreads)
        try container.encode(report.elapsedSeconds, forKey: .elapsedSeconds)
        try container.encodeIfPresent(report.mergedShards, forKey: .mergedShards)
        try container.encodeIfPresent(report.strategy.searchesExhaustively ? report.timing : nil, forKey: .timing)
        try container.encodeIfPresent(granularity, forKey: .granularity)
        try container.encodeIfPresent(report.notInterleaved, forKey: .notInterleaved)
        try container.encodeIfPresent(report.abandoned, forKey: .stopped)
    }
}

import Foundation

extension Explorer {
    /// Runs shard `shard` (1...`shards`) of a dfs search of `exploration` split at `splitDepth`.
    package static func exploreShard(
        _ exploration: Exploration,
        options: ExplorationOptions,
        shard: Int,
        of shards: Int
    ) throws -> ShardResult {
        let start = DispatchTime.now().uptimeNanoseconds
        var result = try exploreShard(exploration, options: options, shard: shard, of: shards, splitDepth: nil)
        result.elapsedSeconds = secondsSince(start)
        return result
    }

    static func exploreShard(
        _ exploration: Exploration,
        options: ExplorationOptions,
        shard: Int,
        of shards: Int,
        splitDepth: Int? = ParallelExploration.defaultSplitDepth
    ) throws -> ShardResult {
        let splitDepth = splitDepth ?? ParallelExploration.defaultSplitDepth
        let setting = ParallelExploration.Setting(
            exploration: exploration,
            options: options,
            splitDepth: splitDepth,
            startPoints: false
        )
        guard ParallelExploration.splits(setting.options), !exploration.isAsync else {
            throw ShardMergeRefusal(
                description: "only a dfs search with reduction none or dpor of a synchronous program shards"
            )
        }
        if let result = try setting.runShard(shard, of: shards) { return result }
        let started = ParallelExploration.Setting(
            exploration: exploration,
            options: options,
            splitDepth: splitDepth,
            startPoints: true
        )
        guard let result = try started.runShard(shard, of: shards) else {
            throw ShardMergeRefusal(description: "the search needs start points even with them")
        }
        return result
    }

    /// The report of the sequential search, from the results of its shards 1...N.
    ///
    /// Its counts, verdict and first failure are the sequential search's. Its time is the sum of the
    /// shards' wall times (`ExplorationReport.mergedShards` says so), and it has no seconds to the
    /// first failure: each shard's clock started on its own machine.
    package static func merge(_ exploration: Exploration, shards results: [ShardResult]) throws -> ExplorationReport {
        guard let first = results.first else { throw ShardMergeRefusal(description: "no shard results") }
        for result in results {
            guard result.schemaVersion == ShardResult.currentSchemaVersion else {
                throw ShardMergeRefusal(description: "shard result version \(result.schemaVersion) is not supported")
            }
            guard result.fingerprint == first.fingerprint, result.shards == first.shards,
                result.splitDepth == first.splitDepth, result.startPoints == first.startPoints,
                result.stepBound == first.stepBound,
                (try? JSONText.encode(result.options, pretty: false))
                    == (try? JSONText.encode(first.options, pretty: false))
            else {
                throw ShardMergeRefusal(description: "the shard results are not of one exploration")
            }
        }
        let numbers = results.map(\.shard).sorted()
        guard numbers == Array(1...first.shards) else {
            throw ShardMergeRefusal(
                description:
                    "shards \(numbers.map(String.init).joined(separator: ", ")) given; each of 1...\(first.shards) is needed once"
            )
        }
        guard
            let parallel = ParallelExploration(
                exploration: exploration,
                options: first.options,
                startPoints: first.startPoints,
                workers: nil,
                splitDepth: first.splitDepth,
                pick: { _ in 0 }
            ),
            parallel.setting.fingerprint == first.fingerprint
        else {
            throw ShardMergeRefusal(description: "the shard results are of another program")
        }
        var outcomes: [[Int]: TaskOutcome] = [:]
        for result in results {
            for (task, outcome) in zip(result.tasks, result.outcomes) { outcomes[task.prefix] = outcome }
        }
        let options = parallel.setting.options
        var tally = ExplorationTally(options: options, start: DispatchTime.now().uptimeNanoseconds)
        tally.prefers = exploration.preferredFailure
        let (isAsync, nondeterministic) = try parallel.fold(outcomes, into: &tally)
        return report(
            tally,
            exploration: exploration,
            options: options,
            threads: parallel.setting.threads,
            isAsync: isAsync,
            strategyWarning: nondeterministic ? ParallelExploration.nondeterministicWarning : nil,
            annotate: { report in
                report.reduction = options.reduction
                report.tracesCovered = tally.traces.count
                report.elapsedSeconds = results.reduce(0) { $0 + $1.elapsedSeconds }
                report.mergedShards = first.shards
            }
        )
    }
}

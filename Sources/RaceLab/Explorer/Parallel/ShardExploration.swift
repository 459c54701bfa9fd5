import Foundation

/// One shard's part of a dfs search (reductions none and dpor) split across machines: every shard
/// derives the same tasks without seeing the others (every option within the preemption bound at a
/// decision above the split depth is a task, numbered in the trie's depth-first order), runs the
/// tasks numbered `shard - 1` modulo `shards`, and records their outcomes.
package struct ShardResult: Codable, Sendable {
    package static let currentSchemaVersion = 1

    package var schemaVersion = currentSchemaVersion
    /// The program's fingerprint, as its replay strings carry it.
    package var fingerprint: String
    package var options: ExplorationOptions
    package var shard: Int
    package var shards: Int
    var splitDepth: Int
    var startPoints: Bool
    var stepBound: Int
    var tasks: [ExplorationTask]
    var outcomes: [TaskOutcome]
    /// Wall time of the shard's search, in seconds: the executions that learn the tasks included.
    package var elapsedSeconds: Double = 0

    /// The executions the shard's tasks ran.
    package var schedules: Int { outcomes.reduce(0) { $0 + $1.records.count } }
    /// The tasks the shard ran.
    package var taskCount: Int { tasks.count }
}

/// Shard results that are not one exploration, or a search that does not shard.
package struct ShardMergeRefusal: Error, CustomStringConvertible {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}

extension ParallelExploration.Setting {
    /// Runs shard `shard` of `shards`; nil when the search must start again with start points.
    func runShard(_ shard: Int, of shards: Int) throws -> ShardResult? {
        let root = ExplorationTask(prefix: [])
        let given = options.stepBound
        var bound = given ?? StepBound.beforeMeasuring
        if given == nil {
            // The first task measures the bound as the sequential search does, until it is known.
            var measured: Int?
            let outcome = try run(
                root,
                stepBound: bound,
                measuring: true,
                recordLimit: options.scheduleLimit,
                measured: { measured = $0 },
                stopped: { measured != nil }
            )
            if outcome.needsStartPoints { return nil }
            guard let measured else {
                throw ShardMergeRefusal(
                    description: "the first schedules measured no step bound; give --steps to shard"
                )
            }
            bound = measured
        }
        // Learn the trie from each task's first execution.
        var known: Set<[Int]> = [[]]
        var found: [(task: ExplorationTask, rank: [Int])] = [(root, [])]
        var next = 0
        while next < found.count {
            let task = found[next].task
            next += 1
            let outcome = try run(task, stepBound: bound, measuring: false, recordLimit: 1)
            if outcome.needsStartPoints { return nil }
            var path: [Int] = []
            var rank: [Int] = []
            for (depth, decision) in outcome.frozen.enumerated() {
                if depth >= task.prefix.count {
                    for option in decision.offered where option != 0 {
                        let prefix = path + [decision.options[option]]
                        if known.insert(prefix).inserted {
                            found.append((ExplorationTask(prefix: prefix), rank + [option]))
                        }
                    }
                }
                rank.append(decision.options.firstIndex(of: decision.thread) ?? 0)
                path.append(decision.thread)
            }
        }
        let ordered = found.sorted { $0.rank.lexicographicallyPrecedes($1.rank) }.map(\.task)
        var result = ShardResult(
            fingerprint: fingerprint,
            options: options,
            shard: shard,
            shards: shards,
            splitDepth: splitDepth,
            startPoints: startPoints,
            stepBound: bound,
            tasks: [],
            outcomes: []
        )
        for (index, task) in ordered.enumerated() where index % shards == shard - 1 {
            let measuring = task.prefix.isEmpty && given == nil
            let outcome = try run(
                task,
                stepBound: measuring ? StepBound.beforeMeasuring : bound,
                measuring: measuring,
                recordLimit: options.scheduleLimit
            )
            result.tasks.append(task)
            result.outcomes.append(outcome)
        }
        return result
    }
}

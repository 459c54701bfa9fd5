import Foundation

/// A part of a parallel search (`ParallelExploration`): every execution that begins with `prefix`
/// (a thread per decision), then takes the first option at each decision up to the split depth
/// (the task's *spine*), and is searched as usual below it. Nothing above the split depth is
/// backtracked within a task: that is the coordinator's.
struct ExplorationTask: Codable, Hashable, Sendable {
    var prefix: [Int]
}

/// A decision above the split depth, as one task saw it: its options, the thread the task took,
/// and the options (indices into `options`, within the preemption bound) the reduction asks for
/// there after the task's executions (for none, every option within the bound; for dpor, its
/// backtrack set).
struct FrozenDecision: Codable, Sendable {
    var options: [Int]
    var thread: Int
    var requested: [Int]
    /// Every option within the preemption bound: the tasks a sharded search derives.
    var offered: [Int] = []
}

/// What a task ran: its frozen decisions, and one record per execution in the order it ran them.
struct TaskOutcome: Codable, Sendable {
    var frozen: [FrozenDecision] = []
    var records: [ExecutionRecord] = []
    /// The first execution needs start points (see `Explorer.needsStartPoints`): nothing else ran.
    var needsStartPoints = false
    var nondeterministic = false
    var isAsync = false
    /// The task stopped at its record limit before its subtree was done.
    var truncated = false
}

/// A search that can run as a task: `BoundedSearch`.
protocol TaskSearch: SchedulingStrategy {
    /// Fixes the decisions before `depth` (see `ExplorationTask`).
    func freeze(prefix: [Int], depth: Int)
    /// The decisions before the split depth, after the task's executions.
    func frozenDecisions() -> [FrozenDecision]
    /// The trace of the last execution that finished.
    var lastTrace: TraceDigest? { get }
    /// Whether an execution did not see the choices its prefix recorded.
    var nondeterministic: Bool { get }
}

/// Tasks to run in one worker process, with what they need to run as the coordinator would.
struct TaskBatch: Codable, Sendable {
    var options: ExplorationOptions
    var splitDepth: Int
    var startPoints: Bool
    var stepBound: Int
    var tasks: [ExplorationTask]
    /// The most executions each task runs (its share of the schedule limit).
    var recordLimits: [Int]
}

extension Explorer {
    /// Runs the tasks of `batch` (a `TaskBatch` in JSON) on `exploration` and returns their
    /// outcomes in JSON: a worker process's part of a parallel search.
    package static func runTasks(_ exploration: Exploration, batch text: String) throws -> String {
        let batch = try JSONDecoder().decode(TaskBatch.self, from: Data(text.utf8))
        let setting = ParallelExploration.Setting(
            exploration: exploration,
            options: batch.options,
            splitDepth: batch.splitDepth,
            startPoints: batch.startPoints
        )
        var outcomes: [TaskOutcome] = []
        for (task, limit) in zip(batch.tasks, batch.recordLimits) {
            // Results stay in this process (they are not encoded): the coordinator replays the
            // schedules it keeps.
            outcomes.append(try setting.run(task, stepBound: batch.stepBound, measuring: false, recordLimit: limit))
        }
        return try JSONText.encode(outcomes, pretty: false)
    }
}

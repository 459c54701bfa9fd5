import Foundation

/// What a parent asks a child process to do with one variant: the whole child protocol's request,
/// written as the child's only argument (see `HiddenCommandRequest`).
///
/// The child is the running tool started with the hidden `command`; `ChildService` serves it and
/// answers on the request's `channel` (see `ChildChannel`), never on stdout, which belongs to the
/// code under test.
package struct ChildRequest: HiddenCommandRequest, Equatable, Sendable {
    /// The hidden command a child is started with; a tool that isolates variants must accept it.
    package static let command = "_child"

    /// What the child does with the variant.
    package enum Job: Codable, Equatable, Sendable {
        /// Run it with `StressRunner`, trials `firstTrial..<workload.trials` (0 for a whole run; more
        /// to continue a run whose process died), and report its `VariantReport`.
        case run(workload: Workload, seed: UInt64, noise: Bool, budget: Double?, firstTrial: Int)
        /// Explore it with `options`, or replay the schedule `replay` (a replay string), and report
        /// its `VariantExploration`; with `states`, also the state after each step of the failing
        /// schedule, for the pictures of `--html` and `--trace`.
        case explore(options: ExplorationOptions, replay: String?, states: Bool)
        /// Sample it with one of the explorer's strategies and report its `DetectionRate`, as
        /// `racelab power` measures it.
        case measure(options: ExplorationOptions, strategyName: String)
        /// Run a batch of a parallel search's tasks (`Explorer.runTasks`'s input) and report their
        /// outcomes: a worker of the variant's exploration.
        case exploreTasks(batch: String)
        /// Explore shard `shard` of `shards` of its dfs search and report the `ShardResult`.
        case exploreShard(options: ExplorationOptions, shard: Int, shards: Int)
    }

    /// The lesson's number (the TSan calibration's too, which is not among a tool's lessons).
    package var lesson: Int
    package var variant: String
    package var job: Job
    /// The file the child writes its messages to.
    package var channel: String

    package init(lesson: Int, variant: String, job: Job, channel: String) {
        self.lesson = lesson
        self.variant = variant
        self.job = job
        self.channel = channel
    }

    /// The arguments were not written by `commandLine()`: the command is internal to RaceLab.
    package struct Malformed: Error {}
}

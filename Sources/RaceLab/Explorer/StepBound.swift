/// How many steps an execution may take before the explorer gives up on it when no bound is given
/// (`ExplorationOptions.stepBound` nil): a bound that scales with the program.
///
/// Until an execution has finished, the bound is `beforeMeasuring`; the first one that finishes
/// (the unpreempted schedule, for dfs) sets it to `factor` times its steps, and never below
/// `minimum`. A schedule that reaches the bound is unfinished, not failing: a program whose loops
/// run longer than that under some schedule needs a bound given with `--steps`.
enum StepBound {
    /// The bound before any execution finished.
    static let beforeMeasuring = 10_000
    /// The smallest measured bound.
    static let minimum = 1_000
    /// How many times the steps of the first finished execution the others may take.
    static let factor = 10

    /// The bound after the first execution finished in `steps` steps.
    static func measured(from steps: Int) -> Int {
        max(minimum, factor * steps)
    }
}

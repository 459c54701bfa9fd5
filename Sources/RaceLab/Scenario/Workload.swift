/// How much work one run of a variant does: `trials` independent trials, each running `iterations`
/// operations through one `DispatchQueue.concurrentPerform`.
///
/// Every trial starts from fresh shared state, so trials are independent samples: "anomalous trials"
/// in a report is a count of samples, and its frequency estimates how likely the bug is per trial.
public struct Workload: Sendable, Equatable, Codable {
    /// Independent trials, each with fresh shared state.
    public var trials: Int
    /// Operations per trial (the `iterations` of `concurrentPerform`).
    public var iterations: Int

    /// A workload.
    /// - Precondition: `trials` and `iterations` are at least 1.
    public init(trials: Int, iterations: Int) {
        precondition(trials > 0 && iterations > 0, "a workload needs at least one trial and one iteration")
        self.trials = trials
        self.iterations = iterations
    }

    /// Total operations: `trials × iterations`.
    public var operations: Int { trials * iterations }
}

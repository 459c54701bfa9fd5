/// What one `concurrentPerform` iteration knows about itself, handed to a variant's operation.
///
/// An iteration can report an inconsistency it witnessed while the trial was running, for example a
/// reader that saw a state no writer ever produced. Such reports are counted per trial and sampled
/// into the report; the operation itself decides what is inconsistent.
public struct Iteration: Sendable {
    /// The iteration's index, `0 ..< count`, as `concurrentPerform` passes it.
    public let index: Int
    /// The number of iterations in this trial.
    public let count: Int
    /// The trial this iteration belongs to, `0 ..< trials`.
    public let trial: Int

    let log: TrialLog

    init(index: Int, count: Int, trial: Int, log: TrialLog) {
        self.index = index
        self.count = count
        self.trial = trial
        self.log = log
    }

    /// Records an inconsistency seen *during* the trial (an invariant that did not hold).
    ///
    /// - Parameter description: what was seen; kept for the first few reports of a run only, so it
    ///   is evaluated lazily.
    public func recordInconsistency(_ description: @autoclosure () -> String) {
        log.recordInconsistency(description)
    }

    /// Records an error met *during* the trial that is not the bug: a system call that failed, a
    /// resource that could not be had. The trial then counts as an error trial, never as evidence.
    ///
    /// An operation may also simply throw: the runner records what it throws the same way.
    public func recordError(_ error: any Error) {
        log.recordError(error)
    }
}

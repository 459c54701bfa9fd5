/// Follows a recorded schedule; after its end (or where it names a thread that cannot run) it
/// falls back to the non-preemptive choice, so a replay never wedges. One execution.
final class ReplayStrategy: SchedulingStrategy {
    private let choices: [Int]
    /// Set when the schedule did not fit the program: the first decision at which the thread it
    /// names could not run, and why.
    private(set) var divergence: String?

    init(_ schedule: Schedule) {
        choices = schedule.choices
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let (enabled, step) = (decision.enabled, decision.step)
        if step < choices.count {
            let wanted = choices[step]
            if enabled.contains(wanted) { return wanted }
            if divergence == nil {
                let exists = decision.pending.indices.contains(wanted) && decision.pending[wanted] != nil
                let could = enabled.map(String.init).joined(separator: ", ")
                divergence =
                    "decision \(step + 1) chooses thread \(wanted), which "
                    + (exists ? "cannot run there" : "does not exist or has finished there")
                    + " (threads that can: \(could))"
            }
        }
        return decision.nonPreemptive
    }

    func endExecution(_ result: ExecutionResult) -> Bool {
        false
    }
}

/// Follows a recorded schedule; after its end (or where it names a thread that cannot run) it
/// falls back to the non-preemptive choice, so a replay never wedges. One execution.
final class ReplayStrategy: SchedulingStrategy {
    private let choices: [Int]
    /// Set when the schedule did not fit the program (a thread it names was not enabled).
    private(set) var diverged = false

    init(_ schedule: Schedule) {
        choices = schedule.choices
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let (enabled, step) = (decision.enabled, decision.step)
        if step < choices.count {
            if enabled.contains(choices[step]) { return choices[step] }
            diverged = true
        }
        return decision.nonPreemptive
    }

    func endExecution(_ result: ExecutionResult) -> Bool {
        false
    }
}

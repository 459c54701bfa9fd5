/// Picks the thread that runs next at each scheduling point of one execution.
///
/// A policy sees only what a scheduler may know: which threads are enabled (not finished, not
/// waiting for a lock someone holds) and which one ran the previous step.
protocol SchedulingPolicy: AnyObject {
    /// Called before each execution.
    func beginExecution()
    /// - Parameters:
    ///   - enabled: the threads that can run, in ascending order (never empty).
    ///   - current: the thread that ran the previous step, nil at the first decision.
    ///   - step: how many steps ran before this decision.
    func choose(enabled: [Int], current: Int?, step: Int) -> Int
}

/// Follows a recorded schedule; after its end (or where it names a thread that cannot run) it
/// falls back to the non-preemptive choice, so a replay never wedges.
final class ReplayPolicy: SchedulingPolicy {
    private let choices: [Int]
    /// Set when the schedule did not fit the program (a thread it names was not enabled).
    private(set) var diverged = false

    init(_ schedule: Schedule) {
        choices = schedule.choices
    }

    func beginExecution() {}

    func choose(enabled: [Int], current: Int?, step: Int) -> Int {
        if step < choices.count {
            if enabled.contains(choices[step]) { return choices[step] }
            diverged = true
        }
        if let current, enabled.contains(current) { return current }
        return enabled[0]
    }
}

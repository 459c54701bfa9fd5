/// What the explorer keeps of each logical thread to explain a stall or an exploration that
/// explored nothing: how many scheduling points it reached, the last one, whether it reached it
/// inside a task, and the real thread it has run on since.
///
/// Only touched with the execution's lock held, like `ExecutionState`.
final class ThreadTrace {
    struct Record {
        /// Scheduling points the thread paused at (a spawned thread's first step is not counted:
        /// it is paused there before it runs).
        var points = 0
        var lastPoint: String?
        /// Whether it reached `lastPoint` from inside a task (async code).
        var inTask = false
        /// The real thread it runs on since it was last resumed; nil where threads are not sampled.
        var thread: SampledThread?
    }

    private(set) var records: [Int: Record] = [:]

    /// Called on the logical thread's real thread when it gets the baton.
    func resumed(_ thread: Int) {
        records[thread, default: Record()].thread = SampledThread.current
    }

    /// Called on the logical thread's real thread when it gives the baton back at `point`.
    func paused(_ thread: Int, at point: String) {
        var record = records[thread, default: Record()]
        record.points += 1
        record.lastPoint = point
        record.inTask = withUnsafeCurrentTask { $0 != nil }
        records[thread] = record
    }

    func pointsReached(by thread: Int) -> Int {
        records[thread]?.points ?? 0
    }
}

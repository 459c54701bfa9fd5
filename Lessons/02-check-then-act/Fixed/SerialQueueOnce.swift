import Foundation
import RaceLab

/// The article's fix: every check-and-set is a work item on one serial queue, so checks and sets
/// can no longer interleave.
///
/// The article submits the items with `async`, and that has a consequence it does not mention: when
/// `run` returns, the work may not have run yet, nor even been decided. Whoever wants to know
/// whether `execute()` happened (a test, the next step of a program) must first wait for the queue to
/// drain; `drain()` does that. Reading the count without draining can see zero executions.
public final class SerialQueueOnce: @unchecked Sendable {
    /// A `RaceQueue`: a `DispatchQueue` whose work items the schedule explorer sees.
    private let queue = RaceQueue(label: "racelab.serial-queue-once")
    /// Written only by work items on `queue`, one at a time. Read elsewhere only by the schedule
    /// explorer's state line, between steps, while every thread is paused.
    private(set) var didExecute = false

    public init() {}

    /// Enqueues the check-and-set; `execute` runs later, on the queue, at most once over all calls.
    public func run(_ execute: @escaping @Sendable () -> Void) {
        Race.step("async check-and-set")
        queue.async {
            guard !self.didExecute else { return }
            execute()
            self.didExecute = true
        }
    }

    /// Returns once every `run` enqueued before this call has finished.
    public func drain() {
        queue.sync {}
    }
}

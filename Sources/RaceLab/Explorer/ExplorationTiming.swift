import Dispatch

/// Where an exploration's time went, summed over its executions, in seconds: what one schedule
/// costs, and which part to cut first.
///
/// Measured with the monotonic clock around each phase of every execution, so the parts add up to
/// about the exploration's elapsed time (the rest is the loop's own bookkeeping).
public struct ExplorationTiming: Sendable, Codable, Equatable {
    /// Making each execution's program and fresh state (`Exploration`'s `makeState`).
    public var setUp: Double = 0
    /// Creating each logical thread's real thread and running it to its first scheduling point.
    public var threads: Double = 0
    /// The steps: every decision, hand-off of the baton and the code between points.
    public var steps: Double = 0
    /// The invariant, tear-down, and draining threads after a deadlock.
    public var check: Double = 0
    /// After each execution: its trace's key and the strategy's analysis (dpor's races and sleep
    /// sets, the choice of the next schedule).
    public var analysis: Double = 0

    /// No time spent yet.
    public init() {}

    /// The sum of the phases, in seconds.
    public var total: Double { setUp + threads + steps + check + analysis }

    /// One line: milliseconds per schedule, in all and per phase.
    public func perSchedule(_ schedules: Int) -> String {
        let count = Double(max(schedules, 1))
        func ms(_ seconds: Double) -> String { String(format: "%.3f", seconds * 1000 / count) }
        return "\(ms(total)) ms per schedule: set-up \(ms(setUp)), threads \(ms(threads)), "
            + "steps \(ms(steps)), check \(ms(check)), analysis \(ms(analysis))"
    }
}

/// Nanoseconds on the monotonic clock since `start`, in seconds.
func secondsSince(_ start: UInt64) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

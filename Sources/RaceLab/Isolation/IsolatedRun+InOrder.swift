import Foundation

extension IsolatedRun {
    /// Runs `requests`, each in a child process as `run` does, at most `width` at a time, and hands
    /// each report to `deliver` on the calling thread in the order of `requests`: report *i* once
    /// reports 0 through *i* are in. What the caller prints is therefore the same for any `width`.
    ///
    /// Children start in the order of `requests`, the next as soon as a running one ends. With
    /// `width` 1 each runs on the calling thread, one after the other; otherwise each on a thread
    /// of its own, which only waits for its child.
    ///
    /// - Parameters:
    ///   - width: children at most at once; 1 or less runs one at a time.
    ///   - stopped: whether the run was stopped (an interrupt). No child starts once it is true, and
    ///     a child that ends once it is true has no report: it was killed, it did not finish.
    ///   - whileWaiting: called on the calling thread about every 100 ms with the indexes of the
    ///     children running and the seconds since the first of them started (for progress).
    ///   - deliver: called with each index in order and its report; nil when the request did not
    ///     run, or was stopped.
    package static func run(
        _ requests: [Request],
        width: Int,
        executable: String,
        stopped: @escaping @Sendable () -> Bool,
        whileWaiting: (_ running: [Int], _ seconds: Double) -> Void = { _, _ in },
        deliver: (Int, VariantReport?) -> Void
    ) {
        guard width > 1, requests.count > 1 else {
            for (index, request) in requests.enumerated() {
                guard !stopped() else {
                    deliver(index, nil)
                    continue
                }
                let report = run(request, executable: executable) { whileWaiting([index], $0) }
                deliver(index, stopped() ? nil : report)
            }
            return
        }
        let pool = InOrderPool(count: requests.count, width: width)
        while let index = pool.nextToDeliver(
            whileWaiting: whileWaiting,
            start: { index in
                guard !stopped() else { return false }
                let request = requests[index]
                Thread.detachNewThread {
                    let report = run(request, executable: executable)
                    pool.finish(index, report: stopped() ? nil : report)
                }
                return true
            }
        ) {
            deliver(index, pool.take(index))
        }
    }
}

/// The bookkeeping of `IsolatedRun.run(_:width:...)`: which requests started, which ended with
/// what, guarded by one condition that the threads waiting for children signal when one ends.
private final class InOrderPool: @unchecked Sendable {
    // @unchecked: every stored property is read and written with `condition` held.
    private let condition = NSCondition()
    private let count: Int
    private let width: Int
    /// Requests started so far (they start in order).
    private var started = 0
    /// Children running, by index, with the instant each started.
    private var running: [Int: ContinuousClock.Instant] = [:]
    /// Ended requests not yet delivered; a nil report for one stopped.
    private var ended: [Int: VariantReport?] = [:]
    /// The next index to deliver.
    private var next = 0
    private let clock = ContinuousClock()

    init(count: Int, width: Int) {
        self.count = count
        self.width = width
    }

    /// Starts requests while fewer than `width` run (`start` returns false when none may start any
    /// more), waits until the next request in order has ended, and returns its index; nil after the
    /// last. A request `start` declined ends at once without a report.
    func nextToDeliver(
        whileWaiting: ([Int], Double) -> Void,
        start: (Int) -> Bool
    ) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next < count else { return nil }
        while true {
            while started < count && running.count < width {
                let index = started
                started += 1
                if start(index) {
                    running[index] = clock.now
                } else {
                    ended[index] = .some(nil)
                }
            }
            if ended[next] != nil {
                let index = next
                next += 1
                return index
            }
            if !condition.wait(until: Date(timeIntervalSinceNow: 0.1)), let first = running.values.min() {
                let indexes = running.keys.sorted()
                condition.unlock()
                whileWaiting(indexes, (clock.now - first).seconds)
                condition.lock()
            }
        }
    }

    /// Records that request `index` ended with `report`.
    func finish(_ index: Int, report: VariantReport?) {
        condition.lock()
        running[index] = nil
        ended[index] = .some(report)
        condition.signal()
        condition.unlock()
    }

    /// The report of request `index`, which has ended, handed out once.
    func take(_ index: Int) -> VariantReport? {
        condition.lock()
        defer { condition.unlock() }
        return ended.removeValue(forKey: index) ?? nil
    }
}

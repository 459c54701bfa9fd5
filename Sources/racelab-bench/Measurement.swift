import Dispatch
import Foundation
import RaceLab

/// The read/write mix of a workload.
struct Mix: Sendable {
    let name: String
    /// Percentage of operations that write, 0–100.
    let writePercent: Int

    static let all = [
        Mix(name: "read-heavy (90% reads)", writePercent: 10),
        Mix(name: "mixed (50% reads)", writePercent: 50),
        Mix(name: "write-heavy (90% writes)", writePercent: 90),
    ]
}

/// Wall time of one measurement: `threads` threads each doing `operationsPerThread` operations.
///
/// Threads are real threads (not `concurrentPerform`, which would run only one per core), released
/// together by a start gate; the clock runs from the release to the last thread's end, plus a drain
/// of writes still queued.
func measure(_ strategy: Strategy, mix: Mix, threads: Int, operationsPerThread: Int, seed: UInt64) -> Duration {
    guard let counter = strategy.makeGuard() else {
        return measureActor(mix: mix, tasks: threads, operationsPerTask: operationsPerThread, seed: seed)
    }
    return timeThreads(threads, drain: counter.drain) { thread, waitForStart in
        var random = SplitMix64(seed: SplitMix64.derive(seed, thread))
        var sink = 0
        waitForStart()
        for _ in 0..<operationsPerThread {
            if Int(random.next() % 100) < mix.writePercent {
                counter.increment()
            } else {
                sink &+= counter.read()
            }
        }
        _ = blackHole(sink)
    }
}

/// Runs `threads` real threads (not `concurrentPerform`, which would run only one per core) and
/// returns the wall time from their release by a start gate until the last `body` returned and
/// `drain` ran. Each `body` calls `waitForStart` once, after its own set-up, which is not timed.
func timeThreads(
    _ threads: Int,
    drain: () -> Void,
    _ body: @escaping @Sendable (_ thread: Int, _ waitForStart: () -> Void) -> Void
) -> Duration {
    let ready = DispatchSemaphore(value: 0)
    let go = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for thread in 0..<threads {
        done.enter()
        Thread {
            body(thread) {
                ready.signal()
                go.wait()
            }
            done.leave()
        }.start()
    }
    for _ in 0..<threads { ready.wait() }
    let clock = ContinuousClock()
    let start = clock.now
    for _ in 0..<threads { go.signal() }
    done.wait()
    drain()
    return clock.now - start
}

private func measureActor(mix: Mix, tasks: Int, operationsPerTask: Int, seed: UInt64) -> Duration {
    let counter = ActorCounter()
    let finished = DispatchSemaphore(value: 0)
    let elapsed = LockedDuration()
    Task.detached {
        let clock = ContinuousClock()
        let start = clock.now
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var random = SplitMix64(seed: SplitMix64.derive(seed, task))
                    var sink = 0
                    for _ in 0..<operationsPerTask {
                        if Int(random.next() % 100) < mix.writePercent {
                            await counter.increment()
                        } else {
                            sink &+= await counter.read()
                        }
                    }
                    _ = blackHole(sink)
                }
            }
        }
        elapsed.set(clock.now - start)
        finished.signal()
    }
    finished.wait()
    return elapsed.get()
}

/// A `Duration` handed from a task to a waiting thread.
final class LockedDuration: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Duration = .zero
    func set(_ duration: Duration) {
        lock.lock()
        value = duration
        lock.unlock()
    }
    func get() -> Duration {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

/// Median and spread of repeated measurements, in nanoseconds per operation.
struct Sample: Sendable {
    let median: Double
    let minimum: Double
    let maximum: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        minimum = sorted.first ?? 0
        maximum = sorted.last ?? 0
    }

    private init(median: Double, minimum: Double, maximum: Double) {
        self.median = median
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The same sample divided by 1,000: microseconds, when it holds nanoseconds.
    var microseconds: Sample { Sample(median: median / 1e3, minimum: minimum / 1e3, maximum: maximum / 1e3) }

    /// The spread as a fraction of the median: `(max − min) / median`.
    var relativeSpread: Double { median > 0 ? (maximum - minimum) / median : 0 }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

import Foundation
import RaceLab

/// A counter guarded by a lock, with a race window marked inside the critical section: for
/// `racelab-fixtures explore stuck`, the explorer's stall diagnosis and its nothing-explored warning.
final class GuardedCounter: @unchecked Sendable {
    private let invisible = NSLock()
    private let visible = RaceLock("counter")
    /// Guarded by the lock the variant uses.
    private(set) var value = 0

    /// Adds one under `NSLock`, which the explorer does not see: a thread paused at the window holds
    /// it, and the next thread blocks on it for real.
    func incrementUnderNSLock() {
        invisible.lock()
        defer { invisible.unlock() }
        Race.window("add one")
        value += 1
    }

    /// The same under `RaceLock`, which the explorer sees: the next thread waits, modelled.
    func incrementUnderRaceLock() {
        visible.withLock {
            Race.window("add one")
            value += 1
        }
    }

    /// The same with no scheduling point at all: each thread's increment runs as set-up.
    func incrementUnmarked() {
        invisible.withLock { value += 1 }
    }
}

/// One variant per `GuardedCounter` method, explored with one increment per thread.
func guardedCounterVariant(
    _ name: String,
    _ kind: VariantKind,
    summary: String,
    increment: @escaping @Sendable (GuardedCounter) -> Void
) -> Variant {
    countingVariant(
        name,
        kind,
        summary: summary,
        makeState: { GuardedCounter() },
        count: \.value,
        unit: "increments",
        increment
    )
    .exploring(
        Exploration(
            summary: "each thread increments the counter once; invariant: counter == threads",
            makeState: { GuardedCounter() },
            thread: { counter, _ in increment(counter) },
            invariant: { counter, threads in counter.value == threads ? nil : "counter is \(counter.value)" }
        )
    )
}

let stuck = Lesson(
    number: 5,
    slug: "stuck",
    title: "a window inside a lock the explorer does not see; threads with no scheduling point",
    summary: "For 'explore': a thread stuck on an NSLock held by a paused thread, the RaceLock that fixes it, "
        + "and an exploration with nothing to explore.",
    workload: Workload(trials: 2, iterations: 100),
    variants: [
        guardedCounterVariant(
            "window-in-nslock",
            .fixed,
            summary: "the window is inside an NSLock: under the explorer the second thread blocks on it, stuck",
            increment: { $0.incrementUnderNSLock() }
        ),
        guardedCounterVariant(
            "window-in-racelock",
            .fixed,
            summary: "the same inside a RaceLock: the explorer models who holds it",
            increment: { $0.incrementUnderRaceLock() }
        ),
        guardedCounterVariant(
            "no-points",
            .fixed,
            summary: "no window and no explorer-visible lock: every thread runs as set-up, one schedule",
            increment: { $0.incrementUnmarked() }
        ),
    ]
)

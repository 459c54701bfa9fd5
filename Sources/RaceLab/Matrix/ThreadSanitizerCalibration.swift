import Foundation
import Synchronization

/// Correct code run under ThreadSanitizer, to measure TSan itself: the matrix shows these as
/// calibration rows, so that a reader sees in the same table which synchronization TSan understands
/// and which it reports although nothing is wrong.
///
/// Each variant counts `iterations` increments under one primitive; all are correct (the runner
/// checks every count). Each variant declares what TSan does with it on Linux, where it was
/// measured (`ToolExpectation`); on another system the rows are unmeasured until someone measures
/// them there:
/// - `Synchronization.Mutex` is reported: its lock is a futex inside the standard library, which
///   is not instrumented, so TSan sees two threads write the guarded value with nothing between them.
///   This is a false positive; it is why no fixed variant in RaceLab uses `Mutex`. The report needs
///   the lock to be contended at the right moment, so one trial seldom shows it: this row runs many
///   more trials than the others.
/// - `Synchronization.Atomic` is silent: atomics are compiled into the program, where TSan sees
///   them. The harness's own atomics (start gate, trial log) rely on this.
/// - `NSLock` (a `pthread_mutex_t`) is silent: TSan intercepts pthread calls.
///
/// Not a lesson: `racelab list` and `run` do not know it; the matrix runs it (as lesson 0).
public enum ThreadSanitizerCalibration {
    /// The calibration as a lesson (number 0), so that the matrix runs it as it runs the others.
    public static let lesson = Lesson(
        number: 0,
        slug: "tsan-calibration",
        title: "ThreadSanitizer calibration: correct counters",
        summary: "Correct code under each synchronization primitive, to see which ones TSan understands.",
        workload: Workload(trials: 20, iterations: 1_000),
        variants: [mutex, atomic, nslock]
    )

    static let mutex = counting(
        "mutex",
        // portable: words only; this row was measured on Linux, where Mutex is a futex
        summary: "Synchronization.Mutex<Int>: correct, but on Linux its futex is invisible to TSan (false positive)",
        // TSan reports it only when the lock is contended at the right moment: twenty trials often
        // miss it, so this row runs many more.
        workload: Workload(trials: 400, iterations: 1_000),
        counter: { MutexCounter() }
    )
    .expecting(
        tsan: .reported,
        compiler: .notMeasured,
        on: .linux,
        because:
            // portable: words only, the reason for the Linux row
            "a false positive: the lock is a futex inside the uninstrumented standard library, so TSan sees no edge"
    )

    static let atomic = counting(
        "atomic",
        summary: "Synchronization.Atomic<Int>: compiled into the program, seen by TSan",
        counter: { AtomicCounter() }
    )
    .expecting(
        tsan: .silent,
        compiler: .notMeasured,
        on: .linux,
        because: "atomics are compiled into the instrumented program, where TSan sees them"
    )

    static let nslock = counting(
        "nslock",
        summary: "NSLock around a plain Int: a pthread mutex, intercepted by TSan",
        counter: { LockCounter() }
    )
    .expecting(
        tsan: .silent,
        compiler: .notMeasured,
        on: .linux,
        because: "NSLock is a pthread mutex, whose calls TSan intercepts"
    )
}

extension ThreadSanitizerCalibration {
    /// A calibration row: every iteration increments one shared counter, which must end at one
    /// increment per iteration.
    static func counting<Counter: CalibrationCounter>(
        _ name: String,
        summary: String,
        workload: Workload? = nil,
        counter makeCounter: @escaping @Sendable () -> Counter
    ) -> Variant {
        Variant(
            name: name,
            kind: .fixed,
            summary: summary,
            workload: workload,
            makeState: makeCounter,
            operation: { counter, _ in counter.increment() },
            check: { counter, trial in .kept(counter.count, of: trial.iterations, unit: "increments") }
        )
    }
}

/// A counter guarded by the primitive a calibration row measures.
protocol CalibrationCounter: Sendable {
    func increment()
    var count: Int { get }
}

/// A counter in a `Synchronization.Mutex`.
final class MutexCounter: CalibrationCounter {
    private let value = Mutex<Int>(0)

    @inline(never)
    func increment() {
        value.withLock { $0 += 1 }
    }

    var count: Int { value.withLock { $0 } }
}

/// A counter that is one `Atomic<Int>`.
final class AtomicCounter: CalibrationCounter {
    private let value = Atomic<Int>(0)

    @inline(never)
    func increment() {
        value.wrappingAdd(1, ordering: .relaxed)
    }

    var count: Int { value.load(ordering: .acquiring) }
}

/// A plain `Int` behind an `NSLock`.
final class LockCounter: CalibrationCounter, @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    @inline(never)
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

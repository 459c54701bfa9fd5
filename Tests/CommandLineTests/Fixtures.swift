import Foundation
import RaceLab

/// Variants for the parser's tests, named as the messages under test name them. Only
/// `ExploreCommandTests` runs anything: their explorations, never their stress operations.
enum Synthetic {
    /// A buggy variant; its check reports every write lost.
    static func dropping(every period: Int) -> Variant {
        Variant(
            name: "drops-every-\(period)",
            kind: .buggy,
            summary: "skips every \(period)th write",
            makeState: { 0 },
            operation: { _, _ in },
            check: { _, trial in .kept(0, of: trial.iterations) }
        )
    }

    static let clean = Variant(
        name: "clean",
        kind: .fixed,
        summary: "every iteration writes once",
        makeState: { 0 },
        operation: { _, _ in },
        check: { _, trial in .kept(trial.iterations, of: trial.iterations) }
    )
}

/// Programs whose failing schedules are known, for the exit status of `explore`.
enum Explorations {
    /// Plain fields are enough: the explorer runs one logical thread at a time.
    final class Shared: @unchecked Sendable {
        var counter = 0
        let first = RaceLock("first")
        let second = RaceLock("second")
    }

    /// `counter += 1` as a read, a window and a write: two threads can lose an increment.
    static let lostUpdate = Exploration(
        summary: "each thread increments a counter; invariant: counter == threads",
        makeState: { Shared() },
        thread: { shared, _ in
            Race.step("read counter")
            let value = shared.counter
            Race.window("write counter")
            shared.counter = value + 1
        },
        invariant: { shared, threads in shared.counter == threads ? nil : "counter is \(shared.counter)" }
    )

    /// The same increment under a lock: no schedule loses one.
    static let lockedIncrement = Exploration(
        summary: "each thread increments a counter under a lock; invariant: counter == threads",
        makeState: { Shared() },
        thread: { shared, _ in
            shared.first.withLock {
                let value = shared.counter
                Race.window("write counter")
                shared.counter = value + 1
            }
        },
        invariant: { shared, threads in shared.counter == threads ? nil : "counter is \(shared.counter)" }
    )

    /// Two locks taken in opposite orders: a deadlock.
    static let lockOrder = Exploration(
        summary: "thread 0 locks first then second; thread 1 second then first",
        makeState: { Shared() },
        thread: { shared, index in
            let (outer, inner) = index == 0 ? (shared.first, shared.second) : (shared.second, shared.first)
            outer.withLock { inner.withLock { shared.counter += 1 } }
        },
        invariant: { _, _ in nil }
    )
}

import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// Variants for the parser's tests, named as the messages under test name them. Nothing runs their
/// stress operations; `ExploreCommandTests` runs the explorations it attaches to them.
enum Synthetic {
    static let clean = variant("clean", .fixed)

    /// A lesson of one trial of one iteration, to be named on a command line.
    static func lesson(_ number: Int, _ slug: String, _ variants: [Variant]) -> Lesson {
        Lesson(
            number: number,
            slug: slug,
            title: "t",
            summary: "s",
            workload: Workload(trials: 1, iterations: 1),
            variants: variants
        )
    }

    /// A buggy variant; its check reports every write lost.
    static func dropping(every period: Int) -> Variant {
        variant("drops-every-\(period)", .buggy)
    }

    /// A variant that is never run: a fixed one's check would find every write, a buggy one's none.
    static func variant(_ name: String, _ kind: VariantKind) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: "never run",
            makeState: { 0 },
            operation: { _, _ in },
            check: { _, trial in .kept(kind == .fixed ? trial.iterations : 0, of: trial.iterations) }
        )
    }
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
    static let lostUpdate = increment(underLock: false)

    /// The same increment under a lock: no schedule loses one.
    static let lockedIncrement = increment(underLock: true)

    private static func increment(underLock locked: Bool) -> Exploration {
        Exploration(
            summary: "each thread increments a counter" + (locked ? " under a lock" : "")
                + "; invariant: counter == threads",
            makeState: { Shared() },
            thread: { shared, _ in
                let increment = {
                    Race.step("read counter")
                    let value = shared.counter
                    Race.window("write counter")
                    shared.counter = value + 1
                }
                if locked { shared.first.withLock(increment) } else { increment() }
            },
            invariant: { shared, threads in shared.counter == threads ? nil : "counter is \(shared.counter)" }
        )
    }

    /// Two locks taken in opposite orders: a deadlock.
    static let lockOrder = Exploration(
        summary: "thread 0 locks first then second; thread 1 second then first",
        makeState: { Shared() },
        thread: { shared, index in
            let locks = index % 2 == 0 ? [shared.first, shared.second] : [shared.second, shared.first]
            locks[0].withLock { locks[1].withLock { shared.counter += 1 } }
        },
        invariant: { _, _ in nil }
    )
}

extension ArgumentParser {
    /// The error `arguments` are refused with; nil, and an issue recorded, when they are accepted.
    func refusal(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> UsageError? {
        do {
            _ = try parse(arguments)
            Issue.record("\(arguments) should be refused", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

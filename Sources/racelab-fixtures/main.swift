// Synthetic lessons with outcomes known in advance, for RaceLab's own tests: a loss of exactly one
// write in four, a clean counter, a variant that traps, one that hangs, one that exits early.
// Running them through the same `RaceLabTool` as `racelab` tests the runner, the watchdog, the
// report and the exit statuses end to end, without depending on any real race.
import Foundation
import RaceLab
import RaceLabCommandLine

/// A counter behind a lock: correct, so that any loss the tests see is one the variant chose.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

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

let synthetic = Lesson(
    number: 1,
    slug: "synthetic",
    title: "synthetic outcomes",
    summary: "Variants whose anomalies are fixed in advance, to check the runner's arithmetic.",
    workload: Workload(trials: 10, iterations: 100),
    variants: [
        Variant(
            name: "drops-every-fourth",
            kind: .buggy,
            summary: "skips the write of every iteration whose index is a multiple of 4",
            makeState: { Counter() },
            operation: { counter, iteration in if iteration.index % 4 != 0 { counter.increment() } },
            check: { counter, trial in .kept(counter.count, of: trial.iterations) }
        ),
        Variant(
            name: "clean",
            kind: .fixed,
            summary: "every iteration writes once",
            makeState: { Counter() },
            operation: { counter, _ in counter.increment() },
            check: { counter, trial in .kept(counter.count, of: trial.iterations) }
        ),
        Variant(
            name: "odd-trials-inconsistent",
            kind: .buggy,
            summary: "iteration 0 of every odd trial records one inconsistency",
            makeState: { Counter() },
            operation: { counter, iteration in
                counter.increment()
                if iteration.index == 0 && iteration.trial % 2 == 1 {
                    iteration.recordInconsistency("trial \(iteration.trial) is odd")
                }
            },
            check: { counter, trial in .kept(counter.count, of: trial.iterations) }
        ),
    ]
)

let faults = Lesson(
    number: 2,
    slug: "faults",
    title: "processes that die or hang",
    summary: "Variants that trap, hang or exit early, to check isolation and the watchdog.",
    workload: Workload(trials: 2, iterations: 10),
    variants: [
        Variant(
            name: "traps",
            kind: .fixed,
            summary: "traps in its first trial",
            makeState: { Counter() },
            operation: { _, iteration in if iteration.index == 3 { fatalError("fixture trap") } },
            check: { counter, _ in .kept(counter.count, of: 0) }
        ),
        Variant(
            name: "traps-as-its-bug",
            kind: .buggy,
            summary: "traps, and a trap is this bug's known outcome",
            crashMeansReproduced: true,
            makeState: { Counter() },
            operation: { _, iteration in if iteration.index == 3 { fatalError("fixture trap") } },
            check: { counter, _ in .kept(counter.count, of: 0) }
        ),
        Variant(
            name: "hangs",
            kind: .fixed,
            summary: "never finishes its first trial",
            makeState: { Counter() },
            operation: { _, _ in while true { sleep(1) } },
            check: { counter, _ in .kept(counter.count, of: 0) }
        ),
        Variant(
            name: "exits-early",
            kind: .fixed,
            summary: "exits with status 3 before reporting",
            makeState: { Counter() },
            operation: { _, _ in exit(3) },
            check: { counter, _ in .kept(counter.count, of: 0) }
        ),
    ]
)

RaceLabTool(name: "racelab-fixtures", lessons: [synthetic, faults, deadlock]).main()

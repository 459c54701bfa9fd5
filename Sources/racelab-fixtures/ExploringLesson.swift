import Foundation
import RaceLab

/// A counter the explorer's threads increment, as a read, a window and a write.
final class Tally: @unchecked Sendable {
    private let lock = RaceLock("tally")
    /// Guarded by `lock` in the locked increment only.
    var value = 0

    /// Reads, opens a window, writes: two threads can lose an increment.
    func incrementUnlocked() {
        Race.step("read tally")
        let read = value
        Race.window("write tally")
        value = read + 1
    }

    /// The same under a `RaceLock`: no schedule loses one.
    func incrementLocked() {
        lock.withLock { incrementUnlocked() }
    }
}

/// For `racelab-fixtures explore exploring`: explorations whose outcomes are known in advance, and
/// explorations whose code ends its process (a thread that calls `exit`, an invariant that traps) or
/// prints, to check that each variant is explored in a process of its own and that nothing the code
/// under test does reaches the report.
let exploring = Lesson(
    number: 6,
    slug: "exploring",
    title: "explorations that find, pass, crash and print",
    summary: "Explorable variants with known outcomes, and ones whose code exits, traps or prints; for 'explore'.",
    workload: Workload(trials: 1, iterations: 2),
    variants: [
        tallying("lost-update", .buggy, "each thread increments the tally unlocked") { tally, _ in
            tally.incrementUnlocked()
        },
        tallying("locked", .fixed, "each thread increments the tally under a lock") { tally, _ in
            tally.incrementLocked()
        },
        tallying("exits", .buggy, "thread 1 calls exit(0) after its increment") { tally, index in
            tally.incrementUnlocked()
            if index == 1 { exit(0) }
        },
        tallying("traps-in-invariant", .fixed, "its invariant traps", invariantTraps: true) { tally, _ in
            tally.incrementLocked()
        },
        tallying("prints", .fixed, "each thread prints, without a newline, around a locked increment") { tally, _ in
            // Text that looks like JSON and like a report, and no newline: it must reach no report.
            print("{\"variants\": [], \"verdict\": \"FOUND\"", terminator: "")
            tally.incrementLocked()
            FileHandle.standardError.write(Data("written by the code under test".utf8))
        },
        tallying("hangs", .fixed, "thread 0 starts a helper process, then never reaches another point") {
            tally,
            index in
            // A test that interrupts the exploration waits for this file, which names the helper.
            if index == 0, let mark = ProcessInfo.processInfo.environment["RACELAB_FIXTURE_HANG_MARK"] {
                startHelper(pidFile: mark)
                while true { sleep(1) }
            }
            tally.incrementLocked()
        },
        Variant.counting(name: "setup-fails", kind: .fixed, summary: "its exploration's state cannot be made")
            .exploring(
                Exploration(
                    summary: "its state cannot be made (ENOSPC, as on a full disk)",
                    makeState: { () throws -> Tally in throw POSIXError(.ENOSPC) },
                    thread: { _, _ in },
                    invariant: { _, _ in nil }
                )
            ),
    ]
)

/// A variant that increments a `Tally` once per iteration and per explorer thread through
/// `increment` (given the iteration's or the thread's index); afterwards every increment must be
/// counted.
func tallying(
    _ name: String,
    _ kind: VariantKind,
    _ summary: String,
    invariantTraps: Bool = false,
    _ increment: @escaping @Sendable (Tally, Int) -> Void
) -> Variant {
    Variant(
        name: name,
        kind: kind,
        summary: summary,
        makeState: { Tally() },
        operation: { tally, iteration in increment(tally, iteration.index) },
        check: { tally, trial in .kept(tally.value, of: trial.iterations, unit: "increments") }
    ).exploring(
        Exploration(
            summary: summary + "; invariant: tally == threads",
            makeState: { Tally() },
            thread: { tally, index in increment(tally, index) },
            invariant: { tally, threads in
                if invariantTraps { fatalError("fixture invariant trap") }
                if name == "prints" { print("the invariant prints too") }
                return tally.value == threads ? nil : "tally is \(tally.value) after \(threads) increments"
            }
        )
    )
}

// Synthetic lessons with outcomes known in advance, for RaceLab's own tests: a loss of exactly one
// write in four, a clean counter, a variant that traps (in every trial, or in one chosen trial),
// one that hangs, one that exits early.
// Running them through the same `RaceLabTool` as `racelab` tests the runner, the watchdog, the
// report and the exit statuses end to end, without depending on any real race.
import Foundation
import RaceLab
import RaceLabCommandLine

let synthetic = Lesson(
    number: 1,
    slug: "synthetic",
    title: "synthetic outcomes",
    summary: "Variants whose anomalies are fixed in advance, to check the runner's arithmetic.",
    workload: Workload(trials: 10, iterations: 100),
    variants: [
        Variant.counting(
            name: "drops-every-fourth",
            kind: .buggy,
            summary: "skips the write of every iteration whose index is a multiple of 4",
            operation: { counter, iteration in if iteration.index % 4 != 0 { counter.withLockedValue { $0 += 1 } } }
        ),
        Variant.counting(name: "clean", kind: .fixed, summary: "every iteration writes once"),
        Variant.counting(
            name: "odd-trials-inconsistent",
            kind: .buggy,
            summary: "iteration 0 of every odd trial records one inconsistency",
            operation: { counter, iteration in
                counter.withLockedValue { $0 += 1 }
                if iteration.index == 0 && iteration.trial % 2 == 1 {
                    iteration.recordInconsistency("trial \(iteration.trial) is odd")
                }
            }
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
        fault("traps", .fixed, summary: "traps in its first trial") { iteration in
            if iteration.index == 3 { fatalError("fixture trap") }
        },
        fault(
            "traps-as-its-bug",
            .buggy,
            summary: "traps, and a trap is this bug's known outcome",
            crashMeansReproduced: true
        ) { iteration in
            if iteration.index == 3 { fatalError("fixture trap") }
        },
        fault("hangs", .fixed, summary: "never finishes its first trial") { iteration in
            // A test that must act while this variant hangs (interrupt the run) waits for this file
            // instead of guessing a delay.
            // Its scratch folder exists first, so that a test can see a killed child's folder swept.
            if iteration.index == 0, let mark = ProcessInfo.processInfo.environment["RACELAB_FIXTURE_HANG_MARK"] {
                _ = try? ScratchSpace.processFolder()
                _ = FileManager.default.createFile(atPath: mark, contents: nil)
            }
            while true { sleep(1) }
        },
        fault("exits-early", .fixed, summary: "exits with status 3 before reporting") { _ in exit(3) },
        trapping(
            "loses-then-traps",
            .buggy,
            summary: "drops every fourth write in its first trial, then traps in its second",
            inTrial: 2,
            dropsEveryFourth: true
        ),
        trapping(
            "loses-traps-in-trial-3",
            .buggy,
            summary: "drops every fourth write in every trial, and traps in trial 3",
            inTrial: 3,
            dropsEveryFourth: true
        ),
        trapping(
            "fixed-traps-in-trial-2",
            .fixed,
            summary: "keeps every write, and traps in trial 2",
            inTrial: 2,
            dropsEveryFourth: false
        ),
    ]
)

/// A variant whose operation ends its process (a trap, a hang, an exit) instead of returning: the
/// fault is the outcome under test, so its check expects nothing.
func fault(
    _ name: String,
    _ kind: VariantKind,
    summary: String,
    crashMeansReproduced: Bool = false,
    operation: @escaping @Sendable (Iteration) -> Void
) -> Variant {
    Variant.counting(
        name: name,
        kind: kind,
        summary: summary,
        crashMeansReproduced: crashMeansReproduced,
        operation: { _, iteration in operation(iteration) },
        check: { counter, _ in .kept(counter.value, of: 0) }
    )
}

/// A counting variant whose process traps at iteration 3 of trial `trial` (from 1), before that
/// iteration's write; with `dropsEveryFourth`, every iteration whose index is a multiple of 4 skips
/// its write (in every trial). A trap in its own code counts as its bug reproduced.
func trapping(
    _ name: String,
    _ kind: VariantKind,
    summary: String,
    inTrial trial: Int,
    dropsEveryFourth: Bool
) -> Variant {
    Variant.counting(
        name: name,
        kind: kind,
        summary: summary,
        crashMeansReproduced: true,
        operation: { counter, iteration in
            if iteration.trial + 1 == trial && iteration.index == 3 { fatalError("fixture trap") }
            if !dropsEveryFourth || iteration.index % 4 != 0 { counter.withLockedValue { $0 += 1 } }
        }
    )
}

/// Variants whose trials fail for reasons that are not a bug: what a full disk or a failed system call
/// does to a lesson. Their verdict must be ERROR, never REPRODUCED or FAILED.
let errors = Lesson(
    number: 4,
    slug: "errors",
    title: "errors that are not bugs",
    summary: "Variants whose setup or operations fail with system errors, to check the ERROR verdict.",
    workload: Workload(trials: 3, iterations: 20),
    variants: [
        Variant(
            name: "setup-fails",
            kind: .buggy,
            summary: "every trial's setup fails with ENOSPC, as on a full disk",
            makeState: { () throws -> LockedValueBox<Int> in throw POSIXError(.ENOSPC) },
            operation: { counter, _ in counter.withLockedValue { $0 += 1 } },
            check: { counter, trial in .kept(counter.value, of: trial.iterations) }
        ),
        Variant.counting(
            name: "store-fails",
            kind: .fixed,
            summary: "one write per trial fails with EIO and is missing from the final count",
            operation: { counter, iteration in
                if iteration.index == 0 {
                    iteration.recordError(POSIXError(.EIO))
                } else {
                    counter.withLockedValue { $0 += 1 }
                }
            }
        ),
    ]
)

RaceLabTool(name: "racelab-fixtures", lessons: [synthetic, faults, deadlock, errors, stuck, exploring, harness]).main()

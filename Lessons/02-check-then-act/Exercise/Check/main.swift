// The harness for exercise 2 (do not edit): compiled next to the participant's Once.swift.
import ExerciseSupport
import Foundation
import RaceLab
import Synchronization

/// The work: it takes a moment (as real work would: a request, a file), then counts its execution
/// atomically, so the count itself can never lose one. The moment it takes is what makes the
/// starter's window (the flag is set after the work) wide even without the runner's noise, and
/// what a call that returns without waiting for another call's work returns inside (count 0).
final class Executions: Sendable {
    private let count = Atomic<Int>(0)
    @inline(never) func execute() {
        usleep(100)
        count.wrappingAdd(1, ordering: .relaxed)
    }
    var value: Int { count.load(ordering: .acquiring) }
}

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("2 · Once runs its work exactly once")

// Functional: the work runs (a `run` that does nothing never runs twice, and must not pass), it
// has run by the time the first call returns, and later calls do not run it again.
let once = Once()
let work = Executions()
once.run { work.execute() }
check.require(work.value == 1, "the first call runs the work before it returns", evidence: "executions: \(work.value)")
once.run { work.execute() }
once.run { work.execute() }
check.require(work.value == 1, "later calls do not run it again", evidence: "executions: \(work.value)")
let other = Once()
let otherWork = Executions()
other.run { otherWork.execute() }
check.require(
    otherWork.value == 1,
    "each Once has its own flag",
    evidence: "a second Once ran its work \(otherWork.value) times"
)

// Concurrent: ten threads call `run` at once, as in the article; exactly one execution per trial,
// and every caller returns after the work ran (checked inside each iteration, a requirement of its
// own: a compare-exchange runs the work once, yet its losing calls return before it has run).
struct Trial: Sendable {
    let once = Once()
    let work = Executions()
}
let variant = ExerciseCheck.variant(
    of: "Once",
    makeState: { Trial() },
    operation: { trial, iteration in
        trial.once.run { trial.work.execute() }
        if trial.work.value == 0 {
            iteration.recordInconsistency("a call returned before the work had run")
        }
    },
    check: { trial, _ in .executions(trial.work.value) }
)
check.stress(
    variant,
    workload: Workload(trials: 1_500, iterations: 10),
    requirement: "ten concurrent calls run the work exactly once (every trial)",
    eachOperation: .init(
        "every call returns only after the work has run",
        broken: "calls returned before the work had run",
        aside: "The lesson's `atomic` variant returns early the same way: `run 2`, which "
            + "counts only executions, finds it CLEAN.",
        // Each sample would say "a call returned before the work had run": the count says it.
        showsSamples: false
    )
)
check.finish()

// The harness for exercise 2 (do not edit): compiled next to the participant's Once.swift.
import ExerciseSupport
import Foundation
import RaceLab
import Synchronization

/// The work: it takes a moment (as real work would: a request, a file), then counts its execution
/// atomically, so the count itself can never lose one. The moment it takes is what makes the
/// starter's window (the flag is set after the work) wide even without the runner's noise, and
/// what a call that returns without waiting for another call's work returns inside (count 0).
///
/// It also notes how each execution after the first began, for the hint: while another was still
/// running (nothing kept the two apart), or after another had finished (something serialized the
/// work, but not the check).
final class Executions: Sendable {
    private let count = Atomic<Int>(0)
    private let running = Atomic<Int>(0)
    /// Over every `Executions` of the stress run: executions that began while another was running,
    /// and executions after the first that began when none was.
    static let overlapping = Atomic<Int>(0)
    static let afterAnother = Atomic<Int>(0)

    @inline(never) func execute() {
        let others = running.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
        if others > 0 {
            Self.overlapping.wrappingAdd(1, ordering: .relaxed)
        } else if count.load(ordering: .acquiring) > 0 {
            Self.afterAnother.wrappingAdd(1, ordering: .relaxed)
        }
        usleep(100)
        count.wrappingAdd(1, ordering: .releasing)
        running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
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
Executions.overlapping.store(0, ordering: .relaxed)
Executions.afterAnother.store(0, ordering: .relaxed)
let earlyReturns = Atomic<Int>(0)
// Executions summed over the trials: every other call did not run the work, and only such a call
// can return before it has run.
let executions = Atomic<Int>(0)
let workload = Workload(trials: 1_500, iterations: 10)
let variant = ExerciseCheck.variant(
    of: "Once",
    makeState: { Trial() },
    operation: { trial, iteration in
        trial.once.run { trial.work.execute() }
        if trial.work.value == 0 {
            earlyReturns.wrappingAdd(1, ordering: .relaxed)
            iteration.recordInconsistency("a call returned before the work had run")
        }
    },
    check: { trial, _ in
        executions.wrappingAdd(trial.work.value, ordering: .relaxed)
        return .executions(trial.work.value)
    }
)
check.stress(
    variant,
    workload: workload,
    requirement: "ten concurrent calls run the work exactly once (every trial)",
    eachOperation: .init(
        "every call returns only after the work has run",
        broken: "returned before it had run",
        aside: "The lesson's `atomic` variant returns early the same way: `run 2`, which "
            + "counts only executions, finds it CLEAN.",
        // Each sample would say "a call returned before the work had run": the count says it.
        showsSamples: false,
        outOf: { trials in
            (trials * workload.iterations - executions.load(ordering: .relaxed), "calls that did not run the work")
        }
    ),
    // What the code did, for the hint, under the FAIL it explains: read from the run where it can
    // tell, from the source where only the source can.
    diagnosis: {
        Mistake.diagnose(
            overlapping: Executions.overlapping.load(ordering: .relaxed),
            afterAnother: Executions.afterAnother.load(ordering: .relaxed),
            earlyReturns: earlyReturns.load(ordering: .relaxed)
        )
    }
)
check.finish()

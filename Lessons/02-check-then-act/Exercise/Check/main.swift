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

    /// Whether the work has run once `timeout` seconds after this is asked, for work that a call
    /// left to run later (an `async` on a queue): its count then, polled every 0.1 ms.
    func value(within timeout: Double) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while value == 0, Date() < deadline { usleep(100) }
        return value
    }
}

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("2 · Once runs its work exactly once")

// Functional: the work runs (a `run` that does nothing never runs twice, and must not pass), it
// has run by the time the first call returns, and later calls do not run it again.
let once = Once()
let work = Executions()
// A first call that returned before its work ran breaks the second promise, not the job: when the
// work runs later (another thread ran it: a queue's `async`), its FAIL line says so, its kind sends
// to the hint on waiting, and the checks after it wait for such work too.
let ranOnCaller = Atomic<Bool>(false)
let returned = Atomic<Bool>(false)
// The calls run before the `require` that judges them: each block names its requirement first, for
// the checker's message if a call never returns.
check.checking("the first call runs the work before it returns")
once.run {
    let onCaller = Thread.isMainThread
    ranOnCaller.store(onCaller, ordering: .relaxed)
    // Work on another thread waits (50 ms at most) for `run` to return: a `run` that does not wait
    // for it then returns first in every check, not only when that thread happens to be slow.
    let deadline = Date().addingTimeInterval(0.05)
    while !onCaller, !returned.load(ordering: .acquiring), Date() < deadline { usleep(100) }
    work.execute()
}
returned.store(true, ordering: .releasing)
let atReturn = work.value
let late = atReturn == 0 && work.value(within: 1) > 0
check.require(
    atReturn == 1,
    "the first call runs the work before it returns",
    kind: late ? "returns-before-work" : "functional",
    evidence: "executions: \(atReturn)"
        + (late
            ? " when it returned; the work ran after `run` had returned, "
                + (ranOnCaller.load(ordering: .relaxed) ? "on the calling thread" : "on another thread")
            : atReturn == 0 ? " when it returned, and a second later" : "")
)
check.checking("later calls do not run it again")
once.run { work.execute() }
once.run { work.execute() }
if late { usleep(100_000) }  // time for late work of the later calls to run, and be counted
check.require(work.value == 1, "later calls do not run it again", evidence: "executions: \(work.value)")
// Executions one thread's later calls added after the first call's (no other thread ran any): the
// diagnosis names this before any race.
let repeatedAlone = atReturn == 1 ? max(0, work.value - 1) : 0
let other = Once()
let otherWork = Executions()
check.checking("each Once has its own flag")
other.run { otherWork.execute() }
if late { _ = otherWork.value(within: 1) }
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
// Trials whose work had not run when every call had returned: it ran later (`late`), or had not
// run a moment later either (`neverRan`), which the main requirement counts as missing.
let lateRuns = Atomic<Int>(0)
let neverRan = Atomic<Int>(0)
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
        var value = trial.work.value
        if value == 0 {
            // Work a call left to run later: wait for it (a second at most, then 1 ms once a
            // trial's work has been seen not to run), so that it counts as late, not as missing.
            value = trial.work.value(within: neverRan.load(ordering: .relaxed) > 0 ? 0.001 : 1)
            if value > 0 {
                lateRuns.wrappingAdd(1, ordering: .relaxed)
            } else {
                neverRan.wrappingAdd(1, ordering: .relaxed)
            }
        }
        executions.wrappingAdd(value, ordering: .relaxed)
        return .executions(value)
    }
)
/// Counts the marked windows reached where the runner binds no hook: not on the callers' threads,
/// where noise may pause, but on a thread of the code's own (a queue's block), which no hook is
/// bound to. The stress run then says where its mark ran, not that the code no longer reaches it.
private final class WindowsElsewhere: RaceWindowHook {
    let count = Atomic<Int>(0)
    func windowReached(_ name: StaticString) { count.wrappingAdd(1, ordering: .relaxed) }
}
private let elsewhere = WindowsElsewhere()
Race.withFallbackHook(elsewhere) {
    check.stress(
        variant,
        workload: workload,
        requirement: "ten concurrent calls run the work exactly once (every trial)",
        // A trial with no execution lost no write: its work had not run, even waited for.
        lostOutOf: { trials in (trials, "trials whose work had not run when counted, even waited for") },
        eachOperation: .init(
            "every call returns only after the work has run",
            broken: "returned before it had run",
            kind: "early-returns",
            aside: "The lesson's `atomic` and `serial-queue` variants return early too: `make lesson-2`, "
                + "which counts only executions, finds them CLEAN.",
            // Each sample would say "a call returned before the work had run": the count says it.
            showsSamples: false,
            // When the work ran after the calls returned, the call that queued it returned early too.
            outOf: { trials in
                lateRuns.load(ordering: .relaxed) > 0
                    ? (trials * workload.iterations, "calls")
                    : (
                        trials * workload.iterations - executions.load(ordering: .relaxed),
                        "calls that did not run the work"
                    )
            }
        ),
        // What the code did, for the hint, under the FAIL it explains: read from the run where it can
        // tell, from the source where only the source can.
        diagnosis: {
            Mistake.diagnose(
                overlapping: Executions.overlapping.load(ordering: .relaxed),
                afterAnother: Executions.afterAnother.load(ordering: .relaxed),
                earlyReturns: earlyReturns.load(ordering: .relaxed),
                lateRuns: lateRuns.load(ordering: .relaxed),
                neverRan: neverRan.load(ordering: .relaxed),
                trials: workload.trials,
                repeatedAlone: repeatedAlone
            )
        },
        // A flag set before the work, read from the code: its check and set are still two steps, so a
        // run that saw no second execution does not say there can be none.
        unseen: (["flag-before-work"], "duplicate execution"),
        unmarked: { threads in
            elsewhere.count.load(ordering: .relaxed) == 0
                ? nil
                : "noise on; the marked window runs on another thread (a queue's), where the check adds "
                    + (threads > 1 ? "no pause: the calls still ran at once on \(threads) threads" : "no pause")
        }
    )
}
// Double-checked locking: a fast path that reads the flag before the lock, then the locked check,
// work and set. The run cannot fail it (the locked check runs the work once), but the unlocked read
// races with the set: a data race on a plain `Bool`, which only the code (or ThreadSanitizer) shows.
if !check.hasFailed, let flag = Mistake.flagReadBeforeLock(in: participantCode("Once.swift")) {
    check.require(false, "`run` reads the flag only under its lock", kind: "double-checked")
    check.diagnose(
        "double-checked",
        "read from your code: `run` reads `\(flag)` before it takes its lock (a fast path, double-checked "
            + "locking): that read races with the set under the lock, a data race on a plain `Bool` even "
            + "when the value read is right; `make exercise-2 TSAN=1` shows it (`double-checked`)"
    )
}
// A `wait(timeout:)` whose result is thrown away: after the timeout, `run` goes on without the lock.
// The check's work is short, so no wait times out and the run shows nothing; longer work would.
if !check.hasFailed, let wait = Mistake.waitTimeoutIgnored(in: participantCode("Once.swift")) {
    check.require(false, "`run` goes on only once it holds the lock", kind: "semaphore-timeout")
    check.diagnose(
        "semaphore-timeout",
        "read from your code: `run` throws away what `\(wait)` returns: when the wait times out, it goes "
            + "on without the lock, and a call whose work takes longer than the timeout lets the next one "
            + "through the check (`semaphore-timeout`)"
    )
}
check.finish()

// Exercise 2: make `Once` run its work exactly once.
//
// `Once.run(_:)` promises: however many threads call it, `execute` runs exactly once. It checks a
// flag, runs the work, and sets the flag. Called from ten threads at once, the work runs more than
// once: as many times as threads got past the check together (two on two cores, more on more).
// The check's work takes a tenth of a millisecond (the lesson's work only adds one to a count), so
// the window between the check and the set stays open longer: the check sees the work run twice in
// nearly every trial, `make lesson-2` in fewer.
// Fix `Once` so that the work runs exactly once, and so that a call returns only after the work
// has run (by this call or by another one).
//
// Rules:
// - Keep the API: `init()` and `run(_ execute: () -> Void)`. No `async` func. Marking `execute`
//   `@escaping @Sendable` changes the API callers see; the check accepts it, no fix needs it.
// - `execute` must run exactly once per `Once`: not zero times, not twice.
//
// `Race.window("...")` is a RaceLab mark: under the checker a thread may pause there for a moment,
// the way a busy machine would pause it. A mark never creates a bug, it only widens a window that
// is already there. Deleting it does not fix anything; it only makes the bug harder to see.
//
// Check your fix:   make exercise-2        (PASS, or FAIL with what broke, and how often)
// Hints, one at a time: Lessons/02-check-then-act/Exercise/hints.md
// Start over:       make exercise-2-reset
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        guard !didExecute else { return }
        Race.window("saw false → execute()")
        execute()
        didExecute = true
    }
}

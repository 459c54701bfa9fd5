import Foundation
import Testing

/// A check that runs out of time: the checker names the requirement the harness was on (it
/// announces each one on the verdict channel), in which stage, and the likely causes, the
/// exercise's own (`Exercise/hang-causes.md`) among them. A check still in its single-threaded part
/// at 10 s is stopped then, as a likely deadlock (one thread runs it: nothing else can end the
/// wait); one in the run from many threads says once at 10 s that it is still running, and is
/// stopped once no trial of the stress run finished for 20 s (a trial takes a second or two at most),
/// or at the whole limit. Each planted hang is one of the exercise's `Hangs/`, which `make
/// exercises-check` runs too. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// Runs the planted hang with a time limit of `seconds`, expecting the timeout; its output lines,
    /// each checked to fit 100 columns.
    static func hang(
        exercise: Int,
        _ path: String,
        seconds: Int,
        hint: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String] {
        let (status, text) = try await runCheck(
            exercise: exercise,
            Planted(path),
            ["--timeout", String(seconds), "--expect", "timeout"]
        )
        let lines = text.split(separator: "\n").map(String.init)
        #expect(status == 0, "\(text)", sourceLocation: sourceLocation)
        // Not for the projector: the line naming the patched copy's path, and CI's `--expect` verdict.
        let wide = lines.filter { $0.count > 100 && !$0.hasPrefix("Applied ") && !$0.hasPrefix("as expected: ") }
        #expect(wide.isEmpty, "\(wide)", sourceLocation: sourceLocation)
        // No deadlock is described above a timeout: the Next line sends to the causes it listed, or
        // to the hint written for the cause it read from the code.
        #expect(!text.contains("described above"), "\(text)", sourceLocation: sourceLocation)
        #expect(
            Self.joined(lines).contains("Next: find which of the causes above is in the code the named check runs")
                == (hint == nil),
            "\(text)",
            sourceLocation: sourceLocation
        )
        if let hint {
            #expect(text.contains("Next: read hint \(hint) of "), "\(text)", sourceLocation: sourceLocation)
        }
        return lines
    }

    /// A planted hang: its exercise and file, the time limit it runs with and the seconds after which
    /// it must be stopped (a check still in its single-threaded part is stopped at 10 s, or at the
    /// limit if lower; one whose stress run stalls, when no trial finished for 20 s: `stalled`, the
    /// seconds a range, as the trial's start is seen within a second or two of it), the stage and
    /// requirement it hangs in, the requirements that must pass before it, and the likely causes
    /// that must and must not be listed (`earlyReturn`: the file calls `lock()` or `wait()`, has a
    /// `return` and releases in no `defer`, so the commonest cause, a lock an early return leaves
    /// taken, is listed first; otherwise it is not listed). `hint`: the hint the Next line names,
    /// for a cause read from the code (the first of `causes`); nil, it sends to the causes.
    struct HangCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var exercise: Int
        var file: String
        var seconds: Int
        var stoppedAfter: ClosedRange<Int>
        var stalled = false
        var concurrent: Bool
        var requirement: String
        var passedBefore: [String] = []
        var causes: [String]
        var notCauses: [String] = []
        var earlyReturn = false
        var hint: Int? = nil
    }

    @Test(
        "a planted hang is stopped, named by its stage and requirement, with the exercise's likely causes",
        .timeLimit(.minutes(20)),
        arguments: [
            // The first call returned; the third waits for the semaphore the second kept. A limit
            // under 10 s ends before the progress line would.
            HangCase(
                testDescription: "exercise 2: an early return keeps the semaphore, in a single-threaded check",
                exercise: 2,
                file: "\(exercise2)/Hangs/EarlyReturnKeepsSemaphore.patch",
                seconds: 8,
                stoppedAfter: 8...8,
                concurrent: false,
                requirement: "later calls do not run it again",
                passedBefore: ["the first call runs the work before it returns"],
                causes: ["a `DispatchSemaphore(value: 0)` used as a lock"],
                earlyReturn: true
            ),
            // `snapshot()` holds the lock and reads the starter's "atomic" `title`, whose getter
            // takes it again: the first check waits for itself, and is stopped at 10 s, not at the
            // limit, with that trap first among exercise 6's own causes.
            HangCase(
                testDescription: "exercise 6: a lock around the starter's locked properties, stopped at 10 s",
                exercise: 6,
                file: "Lessons/06-async-data-source/Exercise/Hangs/NestedPropertyLock.patch",
                seconds: 60,
                stoppedAfter: 10...10,
                concurrent: false,
                requirement: "a new playlist is empty",
                causes: [
                    "a method that holds `lock` and reads `title` or `items`, whose getters take `lock` again"
                ]
            ),
            // Single-threaded, each add finishes before the next begins: it hangs in the concurrent
            // run's first trial, says so once after 10 s, and is stopped when no trial finished for
            // 20 s, long before the limit of 60 s. Exercise 3's own cause is for an actor, not a queue's;
            // the `wait()` read from the code comes first, and hint 3 is named.
            HangCase(
                testDescription: "exercise 3: a semaphore held across the await, stopped once no trial finishes",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/Hangs/SemaphoreAcrossAwait.patch",
                seconds: 60,
                stoppedAfter: 20...30,
                stalled: true,
                concurrent: true,
                requirement: "200 concurrent adds of one point keep all 200 (every trial)",
                causes: [
                    "read from your code: `add` blocks its thread in `semaphore.wait()` before its `await`",
                    "a blocking wait (`DispatchSemaphore.wait`, a lock, `DispatchGroup.wait`) held across an `await`",
                ],
                notCauses: ["`sync` onto its own queue"],
                hint: 3
            ),
            // The lock taken in a synchronous helper `add` calls: read from that helper's body.
            HangCase(
                testDescription: "exercise 3: an NSLock taken in a helper method, held across the await",
                exercise: 3,
                file: "Lessons/03-actor-reentrancy/Exercise/Hangs/NSLockViaSyncHelpers.swift",
                seconds: 60,
                stoppedAfter: 20...30,
                stalled: true,
                concurrent: true,
                requirement: "200 concurrent adds of one point keep all 200 (every trial)",
                causes: [
                    "read from your code: `add` blocks its thread in `enter()` (which calls `lock.lock()`) before its `await`"
                ],
                hint: 3
            ),
        ]
    )
    func plantedHang(_ planted: HangCase) async throws {
        let lines = try await Self.hang(
            exercise: planted.exercise,
            planted.file,
            seconds: planted.seconds,
            hint: planted.hint
        )
        // The wrapped lines as sentences, each run of spaces one.
        let text = Self.joined(lines).replacing(#/ +/#, with: " ")
        let stage = planted.concurrent ? "in the run from many threads" : "in the single-threaded checks"
        for passed in planted.passedBefore {
            #expect(lines.contains { $0.hasPrefix("  ok    " + passed) }, "\(text)")
        }
        // It never got an answer: no `ok` or `FAIL` line for it.
        #expect(
            !lines.contains {
                $0.hasPrefix("  ok    " + planted.requirement) || $0.hasPrefix("  FAIL  " + planted.requirement)
            },
            "\(text)"
        )
        let failure = try #require(lines.firstIndex { $0.hasPrefix("FAIL: still running after ") }, "\(lines)")
        let stopped = try #require(
            Int(lines[failure].dropFirst("FAIL: still running after ".count).prefix { $0.isNumber }),
            "\(lines[failure])"
        )
        #expect(planted.stoppedAfter.contains(stopped), "\(lines[failure])")
        #expect(
            text.contains(
                "FAIL: still running after \(stopped) s, so the check was stopped. It was checking, "
                    + "\(stage): \(planted.requirement)"
            ),
            "\(text)"
        )
        // One thread runs the single-threaded checks: nothing else can end the wait, said as
        // likely, with the longer limit the concurrent run would have had, when it is longer. A
        // stalled stress run is a likely deadlock too: no trial finished for 20 s.
        #expect(text.contains("likely a deadlock") == (!planted.concurrent || planted.stalled), "\(text)")
        #expect(
            text.contains(
                "It was stopped because no trial finished for 20 s, while a trial normally takes a second or two at most"
            )
                == planted.stalled,
            "\(text)"
        )
        #expect(
            text.contains("(the run from many threads gets \(planted.seconds) s)")
                == (!planted.concurrent && planted.seconds > stopped),
            "\(text)"
        )
        // A progress line after 10 s only when the check goes on past 10 s, before the FAIL.
        // A run that reports its trials words it as progress: "running for 10 s".
        let progress = lines.indices.filter {
            lines[$0].hasPrefix("  ...   still running after ") || lines[$0].hasPrefix("  ...   running for ")
        }
        if stopped > 10 {
            #expect(progress.count == 1 && progress.allSatisfy { $0 < failure }, "\(lines)")
            let announced =
                "... \(planted.stalled ? "running for" : "still running after") 10 s, \(stage): \(planted.requirement); "
            if planted.stalled {
                // How far the trials got, and the stall limit, instead of the whole limit.
                let progress = try Regex(
                    #"(no trial done yet|\d+ trials? done) \(a trial taking 20 s would be stopped as a hang\)"#
                )
                #expect(
                    text.components(separatedBy: announced).dropFirst().first?.contains(progress) == true,
                    "\(text)"
                )
            } else {
                #expect(text.contains(announced + "it is stopped at \(planted.seconds) s"), "\(text)")
            }
        } else {
            #expect(progress.isEmpty, "\(lines)")
        }
        // The commonest cause comes first for code an early return can leave holding a lock, and is
        // left out for code that only uses `withLock` or `sync`, or releases in a `defer`; then the
        // exercise's own, the first of `causes` right after it.
        let causes = lines.filter { $0.hasPrefix("      - ") }
        let earlyReturn = "a `wait()` or `lock()` that an early `return`"
        if planted.earlyReturn {
            #expect(causes.first?.contains(earlyReturn) == true, "\(lines)")
            #expect(text.contains("release it in a `defer` right after taking it - " + planted.causes[0]), "\(text)")
        } else {
            #expect(!text.contains(earlyReturn), "\(text)")
            #expect(causes.first?.contains(planted.causes[0].prefix(40)) == true, "\(lines)")
        }
        for cause in planted.causes {
            #expect(text.contains(cause), "\(text)")
        }
        for cause in planted.notCauses {
            #expect(!text.contains(cause), "\(text)")
        }
    }
}

import Foundation
import Testing

/// A check that runs out of time: the checker names the requirement the harness was on (it
/// announces each one on the verdict channel), in which stage, and the likely causes, the
/// exercise's own (`Exercise/hang-causes.md`) among them; a check still running after 10 s says so
/// once before that. Each planted hang is one of the exercise's `Hangs/`, which `make
/// exercises-check` runs too. In `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// Runs the planted hang with a time limit of `seconds`, expecting the timeout; its output lines,
    /// each checked to fit 100 columns.
    static func hang(
        exercise: Int,
        _ path: String,
        seconds: Int,
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
        // No deadlock is described above a timeout: the Next line sends to the causes it listed.
        #expect(!text.contains("described above"), "\(text)", sourceLocation: sourceLocation)
        #expect(
            Self.joined(lines).contains("Next: find which of the causes above is in the code the named check runs"),
            "\(text)",
            sourceLocation: sourceLocation
        )
        return lines
    }

    @Test(
        "exercise 2: an early return that keeps the semaphore hangs the second single-threaded check, named so",
        .timeLimit(.minutes(20))
    )
    func earlyReturnKeepsTheSemaphore() async throws {
        let lines = try await Self.hang(
            exercise: 2,
            "\(Self.exercise2)/Hangs/EarlyReturnKeepsSemaphore.patch",
            seconds: 8
        )
        // The wrapped lines as sentences, each run of spaces one.
        let text = Self.joined(lines).replacing(#/ +/#, with: " ")
        // The first call returned; the third waits for the semaphore the second kept.
        #expect(lines.contains { $0.hasPrefix("  ok    the first call runs the work before it returns") }, "\(text)")
        // It never got an answer: no `ok` or `FAIL` line for it.
        #expect(
            !lines.contains { $0.hasPrefix("  ok    later calls") || $0.hasPrefix("  FAIL  later calls") },
            "\(text)"
        )
        #expect(
            text.contains(
                "FAIL: still running after 8 s, so the check was stopped. It was checking, in the "
                    + "single-threaded checks: later calls do not run it again"
            ),
            "\(text)"
        )
        // The commonest cause comes first, for every exercise; then exercise 2's own.
        let causes = lines.filter { $0.hasPrefix("      - ") }
        #expect(causes.first?.contains("a `wait()` or `lock()` that an early `return`") == true, "\(lines)")
        #expect(text.contains("a `DispatchSemaphore(value: 0)` used as a lock"), "\(text)")
        // A limit under 10 s ends before the progress line would.
        #expect(!text.contains("still running after 10 s"), "\(text)")
    }

    @Test(
        "exercise 3: a semaphore held across the await hangs the concurrent run: a progress line, then its causes",
        .timeLimit(.minutes(20))
    )
    func semaphoreAcrossAwait() async throws {
        let lines = try await Self.hang(
            exercise: 3,
            "Lessons/03-actor-reentrancy/Exercise/Hangs/SemaphoreAcrossAwait.patch",
            seconds: 11
        )
        // The wrapped lines as sentences, each run of spaces one.
        let text = Self.joined(lines).replacing(#/ +/#, with: " ")
        let requirement = "200 concurrent adds of one point keep all 200 (every trial)"
        // One progress line, after 10 s, naming what the check is on; then the FAIL that names it too.
        let progress = lines.indices.filter { lines[$0].hasPrefix("  ...   still running after ") }
        #expect(progress.count == 1, "\(lines)")
        let failure = try #require(lines.firstIndex { $0.hasPrefix("FAIL: still running after 11 s") }, "\(lines)")
        #expect(progress.allSatisfy { $0 < failure }, "\(lines)")
        #expect(
            text.contains(
                "... still running after 10 s, in the run from many threads: \(requirement); it is stopped at 11 s"
            ),
            "\(text)"
        )
        #expect(text.contains("It was checking, in the run from many threads: \(requirement)"), "\(text)")
        // Exercise 3's own cause, for an actor, not a queue's.
        let blockingWait =
            "a blocking wait (`DispatchSemaphore.wait`, a lock, `DispatchGroup.wait`) held across an `await`"
        #expect(text.contains(blockingWait), "\(text)")
        #expect(!text.contains("`sync` onto its own queue"), "\(text)")
    }
}

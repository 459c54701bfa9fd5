import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import CheckThenAct

/// Lesson 2 under the schedule explorer: every interleaving of two threads, checked one by one.
@Suite(
    "Lesson 2 under the schedule explorer",
    .searchesLessonSchedules()
)
struct CheckThenActExplorerTests {
    static func exploration(_ variant: Variant) throws -> Exploration {
        try #require(variant.exploration, "variant \(variant.name) should be explorable")
    }

    /// The stall limit of every exploration and replay here. No test of this suite is about a stall;
    /// the fan-in callbacks run on GCD's global queue, which on a loaded machine (the whole suite in
    /// parallel) can start one later than the default 10 seconds. A stuck execution still fails
    /// every test here: it is no failing schedule, no passing replay, and leaves no report exhaustive.
    static let stallTimeout = 120.0

    /// The options of these tests: 2 preemptions and the stall limit above; `threads` as given.
    static func options(threads: Int? = nil) -> ExplorationOptions {
        ExplorationOptions(threads: threads, preemptions: 2, stallTimeout: stallTimeout)
    }

    /// The options of the marks-off tests: the explorer stops only at the accesses and primitives it sees.
    static let marksOff = ExplorationOptions(preemptions: 2, stallTimeout: stallTimeout, marks: false)

    /// Explores `variant` with `marksOff`.
    static func exploreMarksOff(_ variant: Variant) async throws -> ExplorationReport {
        try await Explorer.explore(exploration(variant), options: marksOff)
    }

    @Test("both threads pass the check before either sets the flag: the work runs twice")
    func racyOnceRunsTwice() async throws {
        let report = try await Explorer.explore(
            Self.exploration(CheckThenActLesson.buggy),
            options: Self.options()
        )
        #expect(report.exhaustive)
        // Per thread: read the flag, the window, write the flag (a thread that reads `true` stops).
        #expect(report.schedules == 14)
        #expect(report.failingSchedules == 12)
        let failure = try #require(report.failure)
        #expect(failure.steps.map(\.operation).filter { $0 == "read didExecute" }.count == 2)
        #expect(failure.outcome == .invariantBroken("execute() ran 2 times"))
        for _ in 0..<100 {
            let replay = try await Explorer.replay(
                Self.exploration(CheckThenActLesson.buggy),
                schedule: failure.schedule,
                options: Self.options()
            )
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("the racy flag between steps: didExecute and how many times the work ran so far")
    func racyOnceShowsTheFlagAndTheRuns() async throws {
        // Thread 0 passes the check, thread 1 passes it too before thread 0 sets the flag.
        let schedule = Schedule(threads: 2, choices: [0, 0, 1, 1, 1, 0])
        let exploration = try Self.exploration(CheckThenActLesson.buggy)
        let replay = try Explorer.replay(
            exploration,
            schedule: schedule,
            options: Self.options(),
            describingStates: true
        )
        #expect(replay.outcome == .invariantBroken("execute() ran 2 times"))
        #expect(
            replay.steps.map(\.operation) == [
                "read didExecute", "saw false → execute()", "read didExecute", "saw false → execute()",
                "write didExecute", "write didExecute",
            ]
        )
        // After each window the thread runs execute() before its next step: the count grows there.
        #expect(
            replay.states == [
                "didExecute false · work ran 0 times", "didExecute false · work ran 0 times",
                "didExecute false · work ran 1 time", "didExecute false · work ran 1 time",
                "didExecute false · work ran 2 times", "didExecute true · work ran 2 times",
                "didExecute true · work ran 2 times",
            ]
        )
    }

    @Test(
        "a fixed flag between steps: unset at the start; set, with the work run once, at the end",
        arguments: [("serial-queue", [0, 1, 2, 3]), ("lock", [0, 1]), ("atomic", [0, 1])]
    )
    func fixedOnceShowsTheFlagAndOneRun(name: String, choices: [Int]) async throws {
        let variant = try #require(CheckThenActLesson.lesson.variant(named: name))
        let schedule = Schedule(threads: 2, choices: choices)
        let replay = try Explorer.replay(
            Self.exploration(variant),
            schedule: schedule,
            options: Self.options(),
            describingStates: true
        )
        #expect(replay.outcome == .passed)
        #expect(replay.states.first == "didExecute false · work ran 0 times")
        #expect(replay.states.last == "didExecute true · work ran 1 time")
    }

    @Test("two safe calls, read then write, lose an increment when both reads come first")
    func readThenWriteLosesAnIncrement() async throws {
        let exploration = try Self.exploration(CheckThenActLesson.protectedReadThenWrite)
        let report = try await Explorer.explore(exploration, options: Self.options())
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("counter is 1 after 2 increments"))
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options())
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test(
        "no schedule of 2 or 3 threads within 2 preemptions breaks a fixed variant",
        arguments: ["serial-queue", "lock", "atomic", "protected-mutate"],
        [2, 3]
    )
    func fixedVariantsHaveNoFailingSchedule(name: String, threads: Int) async throws {
        let variant = try #require(CheckThenActLesson.lesson.variant(named: name))
        let report = try await Explorer.explore(
            Self.exploration(variant),
            options: Self.options(threads: threads)
        )
        #expect(report.exhaustive)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("two fetch callbacks both read the error count before either writes it: one error is overwritten")
    func callbacksLoseAnError() async throws {
        let exploration = try Self.exploration(CheckThenActLesson.errorsUnprotected)
        let report = try await Explorer.explore(exploration, options: Self.options())
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        let failure = try #require(report.failure)
        // Both read count 0 and store into slot 0; the second store overwrites the first error.
        #expect(failure.outcome == .invariantBroken("the completion saw errors of fetches [3], expected [0, 3]"))
        // The racing threads are the callbacks, which the fetching threads started: threads 2 and 3.
        #expect(failure.spawned.map(\.name) == ["fetch callback", "fetch callback"])
        #expect(failure.steps.suffix(2).map(\.operation) == ["write errors.count", "write errors.count"])
        #expect(Set(failure.steps.suffix(2).map(\.thread)) == [2, 3])
        // GCD callbacks, started by plain threads: the timeline calls them threads, not tasks.
        #expect(!exploration.isAsync && !report.isAsync)
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options())
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("the plain array between steps: the count, and the slot the second callback overwrites")
    func unprotectedErrorsShowTheOverwrittenSlot() async throws {
        let exploration = try Self.exploration(CheckThenActLesson.errorsUnprotected)
        // Both callbacks read count 0 and store into slot 0; fetch 3's error replaces fetch 0's.
        let schedule = Schedule(threads: 2, choices: [0, 1, 2, 2, 2, 3, 3, 3, 3, 2])
        let replay = try Explorer.replay(
            exploration,
            schedule: schedule,
            options: Self.options(),
            describingStates: true
        )
        #expect(replay.outcome == .invariantBroken("the completion saw errors of fetches [3], expected [0, 3]"))
        #expect(replay.states.first == "errors.count 0")
        #expect(replay.states[5] == "errors.count 0 · slot 0 holds fetch 0's error")
        #expect(replay.states[8] == "errors.count 0 · slot 0 holds fetch 3's error")
        #expect(replay.states.last == "errors.count 1 · slot 0 holds fetch 3's error")
    }

    @Test("callbacks appending through Protected.mutate lose nothing in any schedule", arguments: [2, 3])
    func protectedErrorsAreClean(threads: Int) async throws {
        let exploration = try Self.exploration(CheckThenActLesson.errorsProtected)
        let report = try await Explorer.explore(exploration, options: Self.options(threads: threads))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("read, then write: between steps, the counter, what each thread read and will write, and whose write landed")
    func readThenWriteShowsTheValuesRead() async throws {
        let variant = try #require(CheckThenActLesson.lesson.variant(named: "protected-read-then-write"))
        // Both read 0, both submit their write of 1, then the two barriers store 1 twice.
        let schedule = Schedule(threads: 2, choices: [0, 0, 1, 1, 1, 0, 2, 3])
        let replay = try Explorer.replay(
            Self.exploration(variant),
            schedule: schedule,
            options: Self.options(),
            describingStates: true
        )
        #expect(replay.outcome == .invariantBroken("counter is 1 after 2 increments"))
        #expect(
            replay.steps.map(\.operation) == [
                "read", "sync Protected<Int>", "read", "sync Protected<Int>", "write value + 1", "write value + 1",
                "Protected<Int> barrier", "Protected<Int> barrier",
            ]
        )
        #expect(replay.states.first == "counter holds 0")
        #expect(replay.states[2] == "counter holds 0 · thread 0 read 0, writes 1")
        let both = "thread 0 read 0, writes 1 · thread 1 read 0, writes 1"
        #expect(replay.states[4] == "counter holds 0 · " + both)
        // Thread 1's barrier runs first; thread 0's then stores the 1 that is already there.
        #expect(replay.states[7] == "counter holds 1 · thread 0 read 0, writes 1 · thread 1 wrote 1")
        #expect(replay.states.last == "counter holds 1 · thread 0 wrote 1 · thread 1 wrote 1")
    }

    // MARK: With marks off

    @Test(
        "the explorer needs no marks: with marks off every buggy variant has a failing schedule, replayed 100 times",
        arguments: ["buggy", "protected-read-then-write", "errors-unprotected"]
    )
    func marksOffFindsEveryBug(name: String) async throws {
        let variant = try #require(CheckThenActLesson.lesson.variant(named: name))
        let exploration = try Self.exploration(variant)
        let options = Self.marksOff
        let report = try await Explorer.explore(exploration, options: options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        let failure = try #require(report.failure)
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: options)
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("with marks off the racy flag's points are its own reads and writes: both reads come first")
    func marksOffRacyOnceShowsTheAccesses() async throws {
        let report = try await Self.exploreMarksOff(CheckThenActLesson.buggy)
        // Two threads × (read, write): 6 orders; only the 2 serial ones run the work once.
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 4)
        let failure = try #require(report.failure)
        #expect(failure.steps.prefix(2).map(\.operation) == ["read didExecute", "read didExecute"])
        #expect(failure.steps.suffix(2).map(\.operation) == ["write didExecute", "write didExecute"])
    }

    @Test(
        "with marks off no schedule breaks a fixed variant that synchronises through a primitive the explorer sees",
        arguments: ["serial-queue", "lock", "protected-mutate", "errors-protected"]
    )
    func marksOffFixedVariantsAreClean(name: String) async throws {
        let variant = try #require(CheckThenActLesson.lesson.variant(named: name))
        let report = try await Self.exploreMarksOff(variant)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("with marks off the atomic flag runs whole: its threads start in either order, and are never interleaved")
    func marksOffAtomicIsNotInterleaved() async throws {
        let report = try await Self.exploreMarksOff(CheckThenActLesson.atomic)
        // A compare-exchange is no point: each thread is one step from its start, in two orders.
        #expect(report.schedules == 2)
        #expect(report.failingSchedules == 0)
        #expect(
            report.notInterleaved?.hasPrefix("threads 0 and 1 finished without reaching a scheduling point") == true
        )
        // What applies to a lesson's variant: what the explorer sees without marks, not advice to
        // switch or mark code that is switched and marked already.
        let warning = report.notInterleaved ?? ""
        #expect(warning.contains("without them the explorer sees only RaceLab's primitives"), "\(warning)")
        #expect(!warning.contains("compile the code under test"), "\(warning)")
        #expect(!warning.contains("or mark where"), "\(warning)")
    }
}

import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import ActorReentrancy

/// Lesson 3 with marks off: the explorer ignores `Race.window` and `Race.step` and switches tasks
/// only between Swift concurrency jobs, which it runs one at a time. It needs no mark for actor code.
///
/// Not here: `main-actor-update` and `main-actor-one-job`. Their `UIActor` is one actor for the
/// whole process, and other tests of this target run on it at the same time, outside any
/// exploration: a job of theirs that frees the actor runs the explorer's next job where the
/// explorer does not see it, and a job the explorer holds keeps theirs waiting. The tool runs
/// nothing beside an exploration: `UIActorCommandLineTests` explores those two variants with the
/// built `racelab explore 3`, marks on and off.
@Suite(
    "Lesson 3 explored with marks off",
    .searchesLessonSchedules()
)
struct ActorReentrancyUnmarkedTests {
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120, marks: false)

    @Test(
        "every buggy variant has a failing schedule",
        arguments: ["buggy-update", "buggy-reload"]
    )
    func buggyVariantsFail(name: String) async throws {
        let exploration = try ActorReentrancyLesson.lesson.exploration(ofVariant: name)
        let report = try await Explorer.explore(exploration, options: Self.options)
        #expect(report.abandoned == nil)
        let failure = try #require(report.failure)
        guard case .invariantBroken(let broken) = failure.outcome else {
            Issue.record("not a lost update: \(failure.outcome)")
            return
        }
        #expect(broken.hasPrefix("item 0 has updates ") && broken.contains("; lost ["))
        // No mark is a point: every step is a job.
        #expect(
            failure.steps.allSatisfy {
                !$0.operation.hasPrefix("call ") && !$0.operation.hasPrefix("load done: ")
            }
        )
        #expect(report.warning == nil)
    }

    @Test(
        "a failing schedule of a variant with an actor of its own replays 100 of 100 times",
        arguments: ["buggy-update", "buggy-reload"]
    )
    func failuresReplay(name: String) async throws {
        let exploration = try ActorReentrancyLesson.lesson.exploration(ofVariant: name)
        // Any failing schedule will do: the search stops at the first (buggyVariantsFail searches
        // to the end).
        var options = Self.options
        options.schedulesAfterFailure = 0
        let failure = try #require(try await Explorer.explore(exploration, options: options).failure)
        var reproduced = 0
        for _ in 0..<100 {
            // A replay that does not fit (the program is not deterministic) is refused: not reproduced.
            if let replay = try? await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options),
                replay.outcome == failure.outcome
            {
                reproduced += 1
            }
        }
        #expect(reproduced == 100)
    }

    @Test(
        "no fixed variant has a failing schedule",
        arguments: ["await-first", "revalidate", "state-object", "in-flight-task"]
    )
    func fixedVariantsPass(name: String) async throws {
        // in-flight-task has the most jobs (the load task's start and its yield, the joiner's await
        // on its value, each run of the actor's queue a thread of its own), and a switch after a
        // job that ended or suspended costs no preemption, so its schedules grow fastest: 4,168
        // within 0 preemptions, 54,868 within 1, past the 100,000 limit within 2 (measured with
        // `racelab explore 3 --marks off --variant in-flight-task --preemptions P`). Here it is
        // explored exhaustively within 0 preemptions.
        var options = Self.options
        if name == "in-flight-task" { options.preemptions = 0 }
        let report = try await Explorer.explore(
            ActorReentrancyLesson.lesson.exploration(ofVariant: name),
            options: options
        )
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("a search of 1,000 schedules or more prints its counts grouped by thousands, as run does")
    func countsAreGrouped() async throws {
        // in-flight-task has 4,168 schedules within 0 preemptions: a limit of 1,200 stops it there.
        var options = Self.options
        options.preemptions = 0
        options.schedules = 1_200
        let report = try await Explorer.explore(
            ActorReentrancyLesson.lesson.exploration(ofVariant: "in-flight-task"),
            options: options
        )
        #expect(report.schedules == 1_200 && !report.exhaustive)
        let entry = VariantExploration(name: "in-flight-task", kind: .fixed, report: report)
        #expect(entry.verdictLine.contains("stopped the search after 1,200 schedules of 2 tasks"))
        let text = entry.text(heading: "", verbose: true)
        #expect(text.contains("  1,200 schedules ran (schedule limit reached, not exhaustive), 0 failed, in "))
        #expect(text.contains("  1,200 distinct traces: "))
        #expect(!text.contains("1200"))
    }
}

import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import ActorReentrancy

/// Lesson 3 with marks off: the explorer ignores `Race.window` and `Race.step` and switches tasks
/// only between Swift concurrency jobs, which it runs one at a time. It needs no mark for actor code.
@Suite("Lesson 3 explored with marks off")
struct ActorReentrancyUnmarkedTests {
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120, marks: false)

    @Test(
        "every buggy variant has a failing schedule, and it replays 100 of 100 times",
        arguments: ["buggy-update", "buggy-reload", "main-actor-update"]
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
        #expect(failure.steps.allSatisfy { !$0.operation.hasPrefix("call ") && $0.operation != "await load" })
        var reproduced = 0
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options)
            if !replay.diverged && replay.result.outcome == failure.outcome { reproduced += 1 }
        }
        #expect(reproduced == 100)
    }

    @Test(
        "no fixed variant has a failing schedule",
        arguments: ["await-first", "revalidate", "state-object", "in-flight-task", "main-actor-one-job"]
    )
    func fixedVariantsPass(name: String) async throws {
        let report = try await Explorer.explore(
            ActorReentrancyLesson.lesson.exploration(ofVariant: name),
            options: Self.options
        )
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }
}

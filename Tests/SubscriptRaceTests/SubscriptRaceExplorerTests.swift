import Foundation
import RaceLab
import Testing

@testable import SubscriptRace

/// Lesson 1 under the schedule explorer: the lost key is found by search, not by luck.
@Suite("Lesson 1 under the schedule explorer")
struct SubscriptRaceExplorerTests {
    let buggy = try! #require(SubscriptRaceLesson.buggy.exploration)
    let fixed = try! #require(SubscriptRaceLesson.fixed.exploration)

    @Test("the shortest failing schedule is the lesson's story: both gets before either set")
    func findsTheFourStepStory() async throws {
        let report = try await Explorer.explore(buggy, options: .init(strategy: .dfs, threads: 2, preemptions: 2))
        #expect(report.exhaustive)
        // Two threads × (get, set): 6 interleavings; only the 2 serial ones keep both keys.
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 4)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("kept 1 of 2 keys"))
        #expect(failure.steps.count == 4)
        #expect(failure.steps.prefix(2).map(\.operation) == ["get contents", "get contents"])
        #expect(failure.steps.suffix(2).map(\.operation) == ["set contents", "set contents"])
    }

    @Test("replaying the failing schedule loses a key 100 times out of 100")
    func replayAlwaysFails() async throws {
        let schedule = try #require(Schedule(replayString: "2:0.1.0.1"))
        for _ in 0..<100 {
            let (result, diverged) = try await Explorer.replay(buggy, schedule: schedule)
            #expect(!diverged)
            #expect(result.outcome == .invariantBroken("kept 1 of 2 keys"))
        }
    }

    @Test("a serial schedule keeps both keys, even in the buggy store")
    func serialScheduleKeepsBothKeys() async throws {
        let (result, _) = try await Explorer.replay(buggy, schedule: Schedule(threads: 2, choices: [0, 0, 1, 1]))
        #expect(result.outcome == .passed)
    }

    @Test("the fixed store has no failing schedule within 2 preemptions", arguments: [2, 3])
    func fixedStoreIsClean(threads: Int) async throws {
        let report = try await Explorer.explore(fixed, options: .init(strategy: .dfs, threads: threads, preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("pct finds the lost key at a rate above its guarantee")
    func pctFindsIt() async throws {
        let report = try await Explorer.explore(
            buggy,
            options: .init(strategy: .pct, preemptions: 1, schedules: 300, seed: 1)
        )
        let guarantee = try #require(report.pctGuarantee)
        #expect(report.failure != nil)
        #expect(report.hitRate >= guarantee)
    }

    @Test("the actor store has no failing schedule: each call runs whole", arguments: [2, 3])
    func actorStoreIsClean(threads: Int) async throws {
        let actor = try #require(SubscriptRaceLesson.actor.exploration)
        let report = try await Explorer.explore(actor, options: .init(strategy: .dfs, threads: threads, preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        // One step per thread ("call store"): the schedules are the orders of the calls, threads!.
        #expect(report.schedules == (threads == 2 ? 2 : 6))
        #expect(report.failingSchedules == 0)
    }
}

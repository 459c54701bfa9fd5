import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import SubscriptRace

/// Lesson 1 under the schedule explorer: the lost key is found by search, not by luck.
@Suite(
    "Lesson 1 under the schedule explorer",
    .searchesLessonSchedules()
)
struct SubscriptRaceExplorerTests {
    let buggy = try! #require(SubscriptRaceLesson.buggy.exploration)
    let fixed = try! #require(SubscriptRaceLesson.fixed.exploration)

    @Test("the shortest failing schedule is the lesson's story: both gets before either set")
    func findsTheStory() async throws {
        let report = try await Explorer.explore(buggy, options: .init(strategy: .dfs, threads: 2, preemptions: 2))
        #expect(report.exhaustive)
        // Two threads × (get, set), and each set's barrier item is a thread of its own: only the
        // 2 schedules in which one store's barrier runs before the other store's get keep both keys.
        #expect(report.schedules == 10)
        #expect(report.failingSchedules == 8)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("kept 1 of 2 keys"))
        #expect(failure.steps.count == 6)
        #expect(failure.steps.prefix(2).map(\.operation) == ["sync storage", "sync storage"])
        #expect(failure.steps.dropFirst(2).prefix(2).map(\.operation) == ["set contents", "set contents"])
        #expect(failure.steps.suffix(2).map(\.operation) == ["storage barrier", "storage barrier"])
    }

    @Test("replaying the failing schedule loses a key 100 times out of 100")
    func replayAlwaysFails() async throws {
        let schedule = Schedule(threads: 2, choices: [0, 1, 0, 1, 2, 3])
        for _ in 0..<100 {
            let result = try await Explorer.replay(buggy, schedule: schedule)
            #expect(result.outcome == .invariantBroken("kept 1 of 2 keys"))
        }
    }

    @Test("a serial schedule keeps both keys, even in the buggy store")
    func serialScheduleKeepsBothKeys() async throws {
        let result = try await Explorer.replay(buggy, schedule: Schedule(threads: 2, choices: [0, 0, 2, 1, 1, 3]))
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

    @Test(
        "the explorer needs no marks: with marks off the buggy store still loses a key, and replays do",
        arguments: [2, 3]
    )
    func marksOffFindsTheLostKey(threads: Int) async throws {
        let options = ExplorationOptions(threads: threads, preemptions: 2, marks: false)
        let report = try await Explorer.explore(buggy, options: options)
        #expect(report.exhaustive)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("kept \(threads - 1) of \(threads) keys"))
        // The points are the queue's own: the getter's `sync`, the setter's `async` barrier.
        let operations = Set(failure.steps.map(\.operation))
        #expect(operations.isSuperset(of: ["sync storage", "async barrier storage", "storage barrier"]))
        for _ in 0..<100 {
            let result = try await Explorer.replay(buggy, schedule: failure.schedule, options: options)
            #expect(result.outcome == failure.outcome)
        }
    }

    @Test("with marks off no schedule breaks the fixed or the actor store", arguments: ["fixed", "actor"])
    func marksOffFixedStoresAreClean(name: String) async throws {
        let variant = try #require(SubscriptRaceLesson.lesson.variant(named: name))
        let exploration = try #require(variant.exploration)
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2, marks: false))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }
}

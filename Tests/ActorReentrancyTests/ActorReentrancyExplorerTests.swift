import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import ActorReentrancy

/// Lesson 3 under the schedule explorer: the `await load` window is where another call runs on the
/// actor, and the explorer finds the schedule that puts it there.
///
/// Not here: `main-actor-update` and `main-actor-one-job`. Their `UIActor` is one actor for the
/// whole process, and the runner's tests of this target run on it at the same time, outside any
/// exploration: `UIActorCommandLineTests` explores those two variants with the built `racelab`.
@Suite(
    "Lesson 3 under the schedule explorer",
    .searchesLessonSchedules()
)
struct ActorReentrancyExplorerTests {
    /// Generous: under a full parallel test run, a task may wait long for a pool thread; a stuck
    /// report here would mean a test-machine stall, not a finding.
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120)
    static let threeThreads = ExplorationOptions(threads: 3, preemptions: 2, stallTimeout: 120)

    static func exploration(_ name: String) throws -> Exploration {
        try ActorReentrancyLesson.lesson.exploration(ofVariant: name)
    }

    /// Explores variant `name` within 2 preemptions, expects the search to be exhaustive and its
    /// shortest failure to end with both calls' `writeBack` and lose update 2, and replays that
    /// schedule 100 times: each replay must end the same way.
    static func expectLostUpdate(
        _ name: String,
        writeBack: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (report: ExplorationReport, failure: ExecutionResult) {
        let exploration = try Self.exploration(name)
        let report = try await Explorer.explore(exploration, options: Self.options)
        #expect(report.exhaustive, sourceLocation: sourceLocation)
        #expect(report.abandoned == nil, sourceLocation: sourceLocation)
        let failure = try #require(report.failure, sourceLocation: sourceLocation)
        #expect(failure.steps.map(\.operation).suffix(2) == [writeBack, writeBack], sourceLocation: sourceLocation)
        #expect(
            failure.outcome == .invariantBroken("item 0 has updates [1]; lost [2]"),
            sourceLocation: sourceLocation
        )
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options)
            #expect(replay.outcome == failure.outcome, sourceLocation: sourceLocation)
        }
        return (report, failure)
    }

    @Test(
        "both calls read item 0 before either writes it back: one update is undone",
        arguments: [("buggy-update", "load done: write the list back"), ("buggy-reload", "load done: store at index")]
    )
    func buggyMethodsLoseAnUpdate(name: String, writeBack: String) async throws {
        let (report, failure) = try await Self.expectLostUpdate(name, writeBack: writeBack)
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 4)
        #expect(failure.steps.map(\.operation).prefix(2).allSatisfy { $0.hasPrefix("call ") })
        // The store that drops the other call's update says so, for the timeline's ✗.
        let method = name == "buggy-update" ? "updateItem" : "reloadItem"
        #expect(failure.failureSeen?.what == "\(method) stored item 0 without update 2, which another call stored")
        // The columns are the two calls' tasks, not threads.
        #expect(report.text.contains("    step  task 0 "))
        #expect(!report.text.contains("thread 0"))
    }

    @Test("in-flight-task's summary says its calls reload, and what the invariant asks of a reload")
    func inFlightTaskSummarySaysReload() throws {
        let exploration = try Self.exploration("in-flight-task")
        #expect(
            exploration.summary(threads: 2)
                == "two tasks each reload item 0; invariant: item 0 has every load a call started (no stale "
                + "store), and each call got a loaded copy"
        )
        let refreshed = exploration.summary(threads: 3)
        #expect(refreshed.hasPrefix("tasks 0 and 1 each reload item 0; task 2 refreshes the list"), "\(refreshed)")
        #expect(refreshed.contains("each call that found item 0 got a loaded copy"), "\(refreshed)")
        #expect(!refreshed.contains("update"), "\(refreshed)")
        // The update variants keep theirs.
        for name in ["await-first", "revalidate", "state-object"] {
            let summary = try Self.exploration(name).summary(threads: 2)
            #expect(summary.hasPrefix("two tasks each add one update to item 0; invariant"), "\(name)")
        }
    }

    @Test("the article's hazard: a refresh runs while reloadItem awaits, and the old item is stored over the new")
    func reloadAfterRefreshStoresTheOldItem() async throws {
        let exploration = try Self.exploration("buggy-reload")
        #expect(exploration.summary(threads: 3).contains("task 2 refreshes the list (clear(), then setItems"))
        #expect(exploration.summary(threads: 4).contains("tasks 2 and 3 each refresh the list"))
        #expect(exploration.summary(threads: 2).hasPrefix("two tasks each add one update to item 0; invariant"))
        let report = try await Explorer.explore(exploration, options: Self.threeThreads)
        #expect(report.exhaustive)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("item 0, which clear() removed, is back; item 4 is gone"))
        // Task 0 reads slot 0 and suspends; the refresh runs whole; then task 0 stores at slot 0.
        let steps = failure.steps.map { "\($0.thread) \($0.operation)" }
        let read = try #require(steps.firstIndex(of: "0 call reloadItem"))
        let cleared = try #require(steps.firstIndex(of: "2 call clear()"))
        let set = try #require(steps.firstIndex(of: "2 call setItems(new ids)"))
        let store = try #require(steps.firstIndex(of: "0 load done: store at index"))
        #expect(read < cleared && cleared < set && set < store)
        // The state line names what slot 0 holds when task 0 resumes, and what task 0 holds.
        let described = try await Explorer.replay(
            exploration,
            schedule: failure.schedule,
            options: Self.threeThreads,
            describingStates: true
        )
        let text = described.states.joined(separator: "\n")
        #expect(text.contains("slot 0 holds item 4 with updates []"))
        #expect(text.contains("task 0 holds item 0 as read, [], plus update 1; slot 0 holds item 4 now"))
        #expect(text.contains("slot 0 holds item 0 (clear() removed it) with updates [1]"))
        // A call that found the list empty returns without a change a state line shows: it says so.
        let other = try #require(steps.firstIndex(of: "1 call reloadItem"))
        #expect(text.contains("task 1 returned, nothing applied") == (cleared < other && other < set), "\(text)")
        #expect(!text.contains("task 0 returned"))
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.threeThreads)
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("with a refresh, the whole-list write-backs bring the cleared list back")
    func writeBackAfterRefreshResurrectsTheList() async throws {
        let report = try await Explorer.explore(Self.exploration("buggy-update"), options: Self.threeThreads)
        #expect(report.exhaustive)
        let failure = try #require(report.failure)
        #expect(
            failure.outcome
                == .invariantBroken("items [0, 1, 2, 3], which clear() removed, are back; items [4, 5, 6, 7] are gone")
        )
        #expect(failure.failureSeen?.what.hasPrefix("updateItem stored") == true, "\(report.text)")
    }

    @Test(
        "no schedule within 2 preemptions loses an update, or brings back a cleared item, in a fixed variant",
        arguments: ["await-first", "revalidate", "state-object", "in-flight-task"],
        [false, true]
    )
    func fixesKeepBothUpdates(name: String, threeThreads: Bool) async throws {
        let options = threeThreads ? Self.threeThreads : Self.options
        let report = try await Explorer.explore(Self.exploration(name), options: options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("a second reload joins the load in flight: both calls await one load task, and only its starter stores")
    func secondReloadJoinsTheLoad() async throws {
        // Thread 0 starts the load (thread 2) and awaits it; thread 1 finds it in flight and awaits
        // it too; the load runs its two steps; then each caller resumes.
        let schedule = Schedule(threads: 2, choices: [0, 1, 2, 2, 0, 1])
        let result = try await Explorer.replay(
            Self.exploration("in-flight-task"),
            schedule: schedule,
            options: Self.options
        )
        #expect(result.outcome == .passed)
        #expect(result.spawned == [SpawnedThread(thread: 2, parent: 0, name: "load task")])
        #expect(
            result.steps.map(\.operation) == [
                "call reloadItem", "call reloadItem", "load task", "load done: end load task", "await load task",
                "await load task",
            ]
        )
    }
}

import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import AsyncDataSource

/// Lesson 6 under the schedule explorer: a UI thread renders once while a writer publishes two
/// states. Every queue is a `RaceQueue`, so each update is a work item of its own that the
/// explorer starts between any two of the UI's reads, before or after the other updates and the
/// deliveries to the UI queue.
@Suite(
    "Lesson 6 under the schedule explorer",
    .searchesLessonSchedules()
)
struct AsyncDataSourceExplorerTests {
    /// Generous stall timeout: under a full parallel test run a thread may wait long for a core; a
    /// stuck report here would be a test-machine stall, not a finding.
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120)

    static func exploration(_ name: String) throws -> Exploration {
        try AsyncDataSourceLesson.lesson.exploration(ofVariant: name)
    }

    @Test(
        "the summary names who publishes what for the run's thread count",
        arguments: [
            (1, "thread 0 publishes v1, then v2; invariant: I"),
            (2, "thread 1 renders the UI once; thread 0 publishes v1, then v2; invariant: I"),
            (
                3,
                "thread 1 renders the UI once; threads 0 and 2 each publish the next state twice (v1 to v4 "
                    + "between them); invariant: I"
            ),
            (
                4,
                "thread 1 renders the UI once; threads 0, 2 and 3 each publish the next state twice (v1 to v6 "
                    + "between them); invariant: I"
            ),
            (
                6,
                "thread 1 renders the UI once; threads 0 and 2 to 5 each publish the next state twice (v1 to "
                    + "v10 between them); invariant: I"
            ),
        ]
    )
    func summaryPerThreadCount(threads: Int, summary: String) throws {
        #expect(AsyncDataSourceLesson.roles(threads, ui: "renders the UI once", invariant: "I") == summary)
        // Each exploration of the lesson says it so: its default (two threads) and three.
        let exploration = try Self.exploration("public-properties")
        let invariant = "the UI saw one whole state and no update was lost"
        #expect(exploration.summary == AsyncDataSourceLesson.roles(2, ui: "renders the UI once", invariant: invariant))
        #expect(
            exploration.summary(threads: 3)
                == "thread 1 renders the UI once; threads 0 and 2 each publish the next state twice (v1 to v4 "
                + "between them); invariant: \(invariant)"
        )
        for variant in AsyncDataSourceLesson.lesson.variants {
            #expect(variant.exploration.map { !$0.summary(threads: threads).contains("every other thread") } != false)
        }
    }

    @Test(
        "an update's work item between the UI's reads shows it a state that never existed",
        arguments: [
            // The story's symptom is kept among the shortest failing schedules (`storyWords`).
            (
                "public-properties", "public-properties barrier",
                "the UI saw mixed state: header says 2 items, the list shows 3 (header v0, items v1, footer v1)"
            ),
            ("atomic-property", "atomic-property item", "the UI saw torn cell"),
            ("mutable-inside-state", "state-data-source barrier", "the UI saw mixed state"),
        ]
    )
    func buggyReadersSeeMixedStates(name: String, updateItem: String, broken: String) async throws {
        let (exploration, failure) = try await Self.exploreExpectingFailure(name)
        guard Self.expectBrokenInvariant(failure, startingWith: broken) else { return }
        // The UI starts rendering, then the update's work item runs before the UI's next read.
        let operations = failure.steps.map(\.operation)
        let render = try #require(operations.firstIndex(of: "render"))
        #expect(operations[(render + 1)...].contains(updateItem))
        try await Self.expectReplaysReproduce(failure, of: exploration)
    }

    @Test("the story's schedule shows the UI's header read as a step of its own, before the change lands")
    func publicPropertiesHeaderReadIsAStep() async throws {
        let (_, failure) = try await Self.exploreExpectingFailure("public-properties")
        let uiSteps = failure.steps.filter { $0.thread == 1 }.map(\.operation)
        #expect(uiSteps.prefix(3) == ["render", "sync ui", "read header"])
        // The header is read before the first `change` block runs, the items after it.
        let operations = failure.steps.map(\.operation)
        let header = try #require(operations.firstIndex(of: "read header"))
        let barrier = try #require(operations.firstIndex(of: "public-properties barrier"))
        let items = try #require(operations.firstIndex(of: "read items"))
        #expect(header < barrier && barrier < items)
        // Each set the change makes is a step of its own: the barrier's start does not hide the header's.
        let setHeader = try #require(operations.firstIndex(of: "set header"))
        let setItems = try #require(operations.firstIndex(of: "set items, footer"))
        #expect(barrier < setHeader && setHeader < setItems && setItems < items)
    }

    @Test("the story's schedule, replayed as explore prints it, marks the UI's mixed read: step 9 of 14")
    func publicPropertiesMixedReadIsMarked() async throws {
        let exploration = try Self.exploration("public-properties")
        let schedule = try Schedule.parse("2:0.0.1.1.1.2.2.2.1.1.1.3.3.3@02c0df")
        let result = try await Explorer.replay(exploration, schedule: schedule, options: Self.options)
        #expect(result.steps.count == 14)
        guard case .invariantBroken(let broken) = result.outcome else {
            Issue.record("expected a broken invariant, got \(result.outcome.summary)")
            return
        }
        #expect(broken.hasPrefix("the UI saw mixed state: header says 2 items, the list shows 3"))
        // The header was read at step 5, before the change; the items at step 9, after it.
        #expect(
            result.failureSeen == FailureSeen(step: 9, thread: 1, what: "mixed state: read header v0, then items v1")
        )
        #expect(result.steps[8].thread == 1 && result.steps[8].operation == "read items")
        let entry = VariantExploration(name: "public-properties", kind: .buggy, replayOf: result)
        let text = entry.text(heading: "h", verbose: false)
        #expect(text.contains("       9                       read items  ✗ seen broken\n"))
        #expect(
            text.contains(
                "\n  FAILING SCHEDULE (14 steps; seen broken at step 9 ✗: mixed state: read header v0, then items v1)\n"
            )
        )
    }

    /// A buggy variant whose failing schedule must contain a step of its own, and, where given, the
    /// start of the invariant it breaks.
    struct RacingCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var name: String
        var step: String
        var broken: String?
    }

    @Test(
        "a variant that races on purpose fails in a schedule with its telltale step",
        .racesOnPurpose("update-without-barrier and observer-on-main-queue race on the state var and on an array"),
        arguments: [
            RacingCase(
                testDescription:
                    "updates without the barrier: two run side by side from one state, and an observer hears a version twice",
                name: "update-without-barrier",
                step: "install state",
                broken: "1 of 2 updates lost: the data source ended at v1 after 2 updates, and an observer was told v1"
            ),
            RacingCase(
                testDescription: "an observer added from the caller's thread, the article's way, is told a state twice",
                name: "observer-on-main-queue",
                step: "tell current state",
                broken: "observer order broken: an observer was told v"
            ),
        ]
    )
    func racingVariantFails(racing: RacingCase) async throws {
        let (exploration, failure) = try await Self.exploreExpectingFailure(racing.name)
        if let broken = racing.broken {
            guard Self.expectBrokenInvariant(failure, startingWith: broken) else { return }
        }
        #expect(failure.steps.map(\.operation).contains(racing.step))
        try await Self.expectReplaysReproduce(failure, of: exploration)
    }

    @Test(
        "each buggy variant's failing schedule shows its state between steps: what the data source holds, what the UI got",
        arguments: [
            (
                "public-properties", "header v0, items v0, footer v0; UI got nothing yet",
                "header v2 (UI v0), items v2 (UI v1), footer v2 (UI v1); UI got title v1, detail v1"
            ),
            ("update-without-barrier", "data source v0; observer told nothing", "data source v1; observer told v1, v1"),
            (
                "atomic-property", "data source v0; UI got nothing yet",
                "data source v2; UI got state v0, title v0, detail v1"
            ),
            (
                "observer-on-main-queue", "data source v0; old observer told nothing; no new observer yet",
                "data source v2; old observer told v1, v2; new observer told v1, v1, v2"
            ),
            (
                "mutable-inside-state", "data source v0 (footer v0); UI copy v0 (footer v0)",
                "data source v2 (footer v2); UI copy v2 (footer v2)"
            ),
        ]
    )
    func failingScheduleDescribesState(name: String, first: String, last: String) async throws {
        let (exploration, failure) = try await Self.exploreExpectingFailure(name)
        let replay = try await Explorer.replay(exploration, schedule: failure.schedule, describingStates: true)
        #expect(replay.outcome == failure.outcome)
        #expect(replay.states.first == first)
        #expect(replay.states.last == last)
    }

    @Test("the fix, an observer added on the UI queue against the same writers, has no failing schedule")
    func observerAddedOnUIQueueHearsEveryStateOnce() async throws {
        try await Self.expectNoFailingSchedule(
            AsyncDataSourceLesson.observerAddedAgainstWriters { SpecificQueueObserverVariant.Trial() },
            options: Self.options
        )
    }

    @Test(
        "no schedule of 2 threads within 2 preemptions misleads the UI of a fixed variant",
        arguments: [
            "state-object", "actor-state", "sync-operations", "safe-reading-queue",
            "specific-queue-observer", "atomic-observer",
        ]
    )
    func fixedVariantsHaveNoFailingSchedule(name: String) async throws {
        try await Self.expectNoFailingSchedule(name, options: .init(threads: 2, preemptions: 2, stallTimeout: 120))
    }

    /// With 3 threads, every update and every delivery to the UI is a thread of its own (up to 11
    /// for `state-object`), and the schedules multiply: without reduction, within 2 preemptions
    /// `state-object` takes 82,748 schedules, `specific-queue-observer` over 100,000; within 1
    /// preemption about 20,000 each (20 to 30 s). `state-object` is checked with the states reduction
    /// above; of the others, those whose updates send nothing to the UI queue are checked here.
    @Test(
        "no schedule of 3 threads within 1 preemption misleads the UI of a fixed variant",
        arguments: ["actor-state", "sync-operations", "safe-reading-queue", "atomic-observer"]
    )
    func fixedVariantsHaveNoFailingScheduleWithThreeThreads(name: String) async throws {
        try await Self.expectNoFailingSchedule(name, options: .init(threads: 3, preemptions: 1, stallTimeout: 120))
    }

    /// The point of 3 threads: two writers whose updates interleave with each other and with the UI's
    /// render. `state-object` declares complete footprints, so the default reduction is `states`:
    /// measured in release, 7,248 schedules cover the 5,256 traces that `--reduction none` covers in
    /// 82,748, none failing.
    @Test("state-object: no schedule of 3 threads within 2 preemptions misleads the UI (states reduction)")
    func stateObjectWithThreeThreads() async throws {
        let exploration = try Self.exploration("state-object")
        let report = try await Explorer.explore(
            exploration,
            options: .init(threads: 3, preemptions: 2, stallTimeout: 120)
        )
        #expect(report.reduction == .states)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.failingSchedules == 0, "\(report.failure.map { $0.outcome.summary } ?? "")")
        #expect(report.tracesCovered == 5_256)
    }

    /// Explores variant `name` within `options`; expects every schedule searched, no warning, and a
    /// failing schedule, and returns the exploration with its first failure.
    static func exploreExpectingFailure(_ name: String) async throws -> (Exploration, ExecutionResult) {
        let exploration = try Self.exploration(name)
        let report = try await Explorer.explore(exploration, options: Self.options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        #expect(report.failingSchedules > 0)
        return (exploration, try #require(report.failure))
    }

    /// Expects `failure` to end in a broken invariant whose description starts with `prefix`;
    /// whether it broke an invariant at all.
    static func expectBrokenInvariant(_ failure: ExecutionResult, startingWith prefix: String) -> Bool {
        guard case .invariantBroken(let what) = failure.outcome else {
            Issue.record("expected a broken invariant, got \(failure.outcome.summary)")
            return false
        }
        #expect(what.hasPrefix(prefix), "\(what)")
        return true
    }

    /// Replays `failure`'s schedule 20 times: each replay follows it and ends the same way.
    static func expectReplaysReproduce(_ failure: ExecutionResult, of exploration: Exploration) async throws {
        for _ in 0..<20 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options)
            #expect(replay.outcome == failure.outcome)
        }
    }

    static func expectNoFailingSchedule(_ name: String, options: ExplorationOptions) async throws {
        try await expectNoFailingSchedule(Self.exploration(name), options: options)
    }

    static func expectNoFailingSchedule(_ exploration: Exploration, options: ExplorationOptions) async throws {
        let report = try await Explorer.explore(exploration, options: options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0, "\(report.failure.map { $0.outcome.summary } ?? "")")
    }
}

/// The deadlocks the lesson warns about, made by the lesson's own types: each test runs the
/// variant's real code plus the one call its documentation forbids, and the explorer reports the
/// threads waiting for each other instead of hanging.
@Suite("Lesson 6's deadlocks under the schedule explorer", .serialized)
struct AsyncDataSourceDeadlockTests {
    /// An observer that reads the data source synchronously when told of a new state: a `sync`
    /// made from the data source's own queue, inside the update's barrier.
    final class ReadingObserver: StateObserver, @unchecked Sendable {
        weak var dataSource: SyncOperationsDataSource<CollectionState>?

        func dataSourceChanged(_ newState: CollectionState) {
            _ = dataSource?.read { $0.version }
        }
    }

    @Test("sync-operations: an observer that reads synchronously waits for the update it is called from")
    func syncFromItsOwnQueueDeadlocks() async throws {
        let exploration = Exploration(
            summary: "thread 0 updates synchronously, with an observer that reads synchronously; thread 1 renders",
            makeState: {
                let trial = SyncOperationsVariant.Trial()
                let observer = ReadingObserver()
                observer.dataSource = trial.dataSource
                trial.dataSource.add(observer: observer, notifyOnAdded: false, sync: true)
                return (trial, observer)
            },
            thread: { state, index in
                if index == 0 {
                    Race.step("update")
                    state.0.dataSource.update(sync: true) { $0.next() }
                } else {
                    Race.step("render")
                    _ = state.0.render(cell: 0)
                }
            },
            invariant: { _, _ in nil }
        )
        let (report, _) = try await Self.exploreDeadlock(
            exploration,
            options: .init(preemptions: 2, stallTimeout: 120),
            expecting: [
                ThreadPosition(thread: 0, waitingFor: "sync sync-operations", heldBy: 0),
                ThreadPosition(thread: 1, waitingFor: "sync sync-operations", heldBy: 0),
            ]
        )
        // The observer's read waits behind the barrier that is calling it: every schedule deadlocks.
        #expect(report.failingSchedules == report.schedules)
    }

    @Test("safe-reading-queue: the UI waiting for the data source while an update waits for the UI deadlocks")
    func uiSyncingToTheDataSourceDeadlocks() async throws {
        let exploration = Exploration(
            summary: "thread 0 updates; thread 1 renders, then waits for the data source from the UI queue",
            makeState: { SafeReadingQueueVariant.Trial() },
            thread: { trial, index in
                if index == 0 {
                    Race.step("update")
                    trial.dataSource.update { $0.next() }
                } else {
                    Race.step("render")
                    trial.ui.sync {
                        _ = CollectionReader.auditByRepeatedReads(cell: 0) { trial.dataSource.state }
                        // What the data source's documentation forbids: waiting for its queue from
                        // the reading queue.
                        trial.dataSource.waitUntilIdle()
                    }
                }
            },
            invariant: { _, _ in nil }
        )
        let options = ExplorationOptions(preemptions: 2, stallTimeout: 120)
        // Thread 2 is the update's work item on the data source's queue.
        let (report, failure) = try await Self.exploreDeadlock(
            exploration,
            options: options,
            expecting: [
                ThreadPosition(thread: 1, waitingFor: "sync barrier safe-reading-queue", heldBy: 2),
                ThreadPosition(thread: 2, waitingFor: "sync barrier ui", heldBy: 1),
            ]
        )
        // Only when the update's barrier starts before the UI's wait: otherwise the wait goes first.
        #expect(report.failingSchedules > 0)
        #expect(report.failingSchedules < report.schedules)
        let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: options)
        #expect(replay.outcome == failure.outcome)
    }

    /// Explores `exploration` within `options`: every schedule searched, and the first failure the
    /// deadlock of `positions`, whose timeline is printed. The report and that failure.
    static func exploreDeadlock(
        _ exploration: Exploration,
        options: ExplorationOptions,
        expecting positions: [ThreadPosition]
    ) async throws -> (ExplorationReport, ExecutionResult) {
        let report = try await Explorer.explore(exploration, options: options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .deadlock(positions))
        print(failure.outcome.summary)
        print(TimelineText.render(failure.steps, threads: failure.threadCount))
        return (report, failure)
    }
}

import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import CoordinatorLocking

/// Lesson 4 under the schedule explorer: two storages increment one file, and the explorer finds the
/// order in which both read the old value before either saves.
@Suite("Lesson 4 under the schedule explorer", .searchesLessonSchedules())
struct CoordinatorLockingExplorerTests {
    static func exploration(_ name: String) throws -> Exploration {
        try CoordinatorLockingLesson.lesson.exploration(ofVariant: name)
    }

    /// Explores `exploration` within 2 preemptions; expects every schedule searched and no warning.
    static func exploreEverySchedule(_ exploration: Exploration) async throws -> ExplorationReport {
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        return report
    }

    /// Replays `failure`'s schedule 20 times: each replay follows it and ends the same way.
    static func expectReplaysReproduce(_ failure: ExecutionResult, of exploration: Exploration) async throws {
        for _ in 0..<20 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule)
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("both storages read the counter before either saves it: one increment is lost")
    func uncoordinatedLosesAnIncrement() async throws {
        let exploration = try Self.exploration("uncoordinated")
        let report = try await Self.exploreEverySchedule(exploration)
        // Per thread: call mutatingObject, read object, save object.
        #expect(report.schedules == 14)
        #expect(report.failingSchedules == 6)
        let failure = try #require(report.failure)
        // The shortest failure: both read before either saves.
        #expect(
            failure.steps.prefix(4).map(\.operation) == [
                "call mutatingObject", "read object", "call mutatingObject", "read object",
            ]
        )
        #expect(failure.steps.prefix(4).map(\.thread) == [0, 0, 1, 1])
        #expect(failure.outcome == .invariantBroken("counter is 1 after 2 increments"))
        try await Self.expectReplaysReproduce(failure, of: exploration)
    }

    /// Per thread: call mutatingObject, the claim or lock, read object, save object, each a step of
    /// its own. Neither holds the other thread back (one owner; a process-owned `fcntl` lock), so
    /// orders with both threads inside exist and fail.
    @Test(
        "a claim under one owner, or an fcntl record lock, is granted to the second thread while the first holds it: an increment is lost",
        arguments: [
            ("same-owner", "claim for writing"), ("same-owner-one-instance", "claim for writing"),
            ("same-owner-costly-claim", "claim for writing"), ("fcntl-process-lock", "fcntl lock counter.json.lock"),
        ]
    )
    func misconfiguredClaimsGrantBothThreads(name: String, claim: String) async throws {
        let exploration = try Self.exploration(name)
        let report = try await Self.exploreEverySchedule(exploration)
        #expect(report.schedules == 26)
        #expect(report.failingSchedules == 8)
        let failure = try #require(report.failure)
        for thread in [0, 1] {
            let steps = failure.steps.filter { $0.thread == thread }.map(\.operation)
            #expect(steps == ["call mutatingObject", claim, "read object", "save object"], "thread \(thread)")
        }
        let saved = try #require(failure.steps.firstIndex { $0.operation == "save object" })
        let granted = failure.steps[..<saved].filter { $0.operation == claim }
        #expect(Set(granted.map(\.thread)) == [0, 1], "both threads hold it before either saves")
        #expect(failure.outcome == .invariantBroken("counter is 1 after 2 increments"))
        try await Self.expectReplaysReproduce(failure, of: exploration)
    }

    /// The state shown between steps: the file's value, who holds the claim (the lock, for the
    /// `fcntl` record lock), who was granted it too and why, and what each increment read and will
    /// write, so that a failing schedule shows both threads let in, both reading 0 and both
    /// writing 1. `uncoordinated` takes no claim: its states say who read what and who went in too.
    @Test(
        "a failing schedule's states show both threads let in (granted the claim, or with no lock), both read 0, both will write 1",
        arguments: [
            (name: "same-owner", first: "holds the claim, ", second: "granted it too (same owner)"),
            (
                name: "same-owner-one-instance", first: "holds the claim, ",
                second: "granted it too (same owner, one instance)"
            ),
            (
                name: "same-owner-costly-claim", first: "holds the claim, ",
                second: "granted it too (same owner, costly claims)"
            ),
            (name: "fcntl-process-lock", first: "holds the lock, ", second: "granted it too (one process)"),
            (name: "uncoordinated", first: "", second: "went in too (no lock)"),
        ]
    )
    func failingScheduleShowsBothCopies(variant: (name: String, first: String, second: String)) async throws {
        let exploration = try Self.exploration(variant.name)
        let failure = try #require(try await Self.exploreEverySchedule(exploration).failure)
        // The claim and the read are steps of their own; `uncoordinated` takes no claim.
        let claims = variant.name != "uncoordinated"
        #expect(failure.schedule.choices == (claims ? [0, 0, 0, 1, 1, 1, 1, 0] : [0, 0, 1, 1, 1, 0]))
        let replay = try Explorer.replay(exploration, schedule: failure.schedule, describingStates: true)
        let none = "no counter file yet (reads as 0)"
        let thread0 = "thread 0 \(variant.first)read 0 → will write 1"
        let thread1 = "thread 1 \(variant.second), read 0 → will write 1"
        let changes = [
            none, "\(none) · \(thread0)", "\(none) · \(thread0) · \(thread1)", "counter file holds 1 · \(thread0)",
            "counter file holds 1",
        ]
        // `call mutatingObject` and the claim change nothing; the read shows what the thread read.
        let expected =
            claims
            ? [none, none, none, changes[1], changes[1], changes[1], changes[2], changes[3], changes[4]]
            : [none, none, changes[1], changes[1], changes[2], changes[3], changes[4]]
        #expect(replay.states == expected)
    }

    @Test("open-file-description locks under the explorer's model: each claim's own open() excludes the other thread")
    func descriptionLockExcludesThreads() async throws {
        let exploration = CoordinatorLockingLesson.incrementOnceEach(
            { _ in OpenFileDescriptionLock() },
            overlap: "no owner"
        )
        for threads in [2, 3] {
            let report = try await Explorer.explore(exploration, options: .init(threads: threads, preemptions: 2))
            #expect(report.exhaustive)
            #expect(report.abandoned == nil, "the lock is modelled, not taken from the kernel: no thread blocks")
            #expect(report.failingSchedules == 0)
            #expect(report.schedules > 1)
        }
    }

    @Test("the article's FileCoordinator: its barrier keeps every schedule's increments, with 2 threads and with 3")
    func barrierKeepsEveryIncrement() async throws {
        let exploration = try Self.exploration("coordinated")
        for threads in [2, 3] {
            // Every schedule (no reduction), so that the count below can be checked by hand.
            let options = ExplorationOptions(reduction: .none, threads: threads, preemptions: 2)
            let report = try await Explorer.explore(exploration, options: options)
            #expect(report.exhaustive)
            #expect(report.abandoned == nil)
            #expect(report.warning == nil)
            #expect(report.failingSchedules == 0)
            // Per thread: call mutatingObject, the barrier, read object, save object. The barrier holds
            // a second thread back while the first is inside, so far fewer orders are possible than
            // without it: with 2 threads, each order of the two barrier items and one of 5 places for
            // the later thread's call.
            #expect(report.schedules == (threads == 2 ? 10 : 204))
        }
    }

    @Test("the same queues with the write claimed as a read (no barrier): the explorer finds the lost increment")
    func readClaimForAWriteLosesAnIncrement() async throws {
        let exploration = CoordinatorLockingLesson.incrementOnceEach(
            { _ in WritesAsReads() },
            overlap: "read claims only"
        )
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2))
        #expect(report.abandoned == nil)
        #expect(report.failure?.outcome == .invariantBroken("counter is 1 after 2 increments"))
    }

    @Test("a schedule that runs one increment before the other starts keeps both")
    func serialScheduleKeepsBoth() async throws {
        let exploration = try Self.exploration("uncoordinated")
        let serial = Schedule(threads: 2, choices: [0, 0, 0, 1, 1, 1])
        let replay = try await Explorer.replay(exploration, schedule: serial)
        #expect(replay.outcome == .passed)
    }
}

/// `FileCoordinator`'s queues, with writes run as plain (concurrent) work items: what the barrier
/// is for.
private struct WritesAsReads: FileAccessCoordinator {
    func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        try FileCoordinator.shared.coordinateReading(at: url, accessor)
    }

    func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        try FileCoordinator.shared.coordinateReading(at: url, accessor)
    }
}

import Foundation
import RaceLab
import Testing

@testable import RaceLabTesting

/// Explorations whose threads reach no scheduling point, or only some of them do.
enum Unexplorable {
    /// Two threads that each add one to a counter under a plain `NSLock`, which the explorer does not
    /// see: a correct fix, but one the explorer cannot interleave.
    static let invisibleLock = Exploration(
        summary: "two threads add one under an NSLock; invariant: the counter is 2",
        makeState: { LockedValueBox(0) },
        thread: { counter, _ in counter.withLockedValue { $0 += 1 } },
        invariant: { counter, threads in counter.value == threads ? nil : "counter is \(counter.value)" }
    )

    /// Three threads; threads 0 and 1 reach a step, thread 2 none.
    static let oneThreadWithoutPoints = Exploration(
        summary: "threads 0 and 1 step once, thread 2 never",
        defaultThreads: 3,
        makeState: { 0 },
        thread: { _, index in if index < 2 { Race.step("step") } },
        invariant: { _, _ in nil }
    )

    /// An async body that never suspends: its task is one job.
    static let asyncWithoutSuspension = Exploration(
        summary: "two tasks add one to a box, never suspending",
        makeState: { LockedValueBox(0) },
        asyncThread: { counter, _ in counter.withLockedValue { $0 += 1 } },
        invariant: { counter, threads in counter.value == threads ? nil : "counter is \(counter.value)" }
    )
}

@Suite("Nothing passes on nothing: a check that explored nothing says so where the user sees it")
struct NothingPassesOnNothingTests {
    @Test("a thread whose one step runs while another is between two points is interleaved: no issue")
    func oneStepAmongOthersIsInterleaved() async throws {
        let report = try await Explorer.explore(Unexplorable.oneThreadWithoutPoints)
        #expect(report.notInterleaved == nil)
        #expect(report.schedules > 1)
        await expectNoFailingSchedule(Unexplorable.oneThreadWithoutPoints)
    }

    @Test("expectNoFailingSchedule fails when its fixed exploration interleaved nothing, naming threads and remedy")
    func noFailingScheduleOnNothingFails() async throws {
        var report: VariantExploration?
        let message = [
            "expectNoFailingSchedule: ", "proves nothing",
            "threads 0 and 1 finished without reaching a scheduling point", "RaceLab switch", "@RaceShared",
        ]
        let line = #line + 2
        await expectKnownIssue(at: line, saying: message) {
            report = await expectNoFailingSchedule(Unexplorable.invisibleLock)
        }
        #expect(report?.failure == nil)
    }

    @Test("the report names the threads the search never interleaved, and only those")
    func notInterleavedNamesTheThreads() async throws {
        // Within 0 preemptions thread 2 never starts while another thread is between two points.
        let unpreempted = ExplorationOptions(preemptions: 0)
        let report = try await Explorer.explore(Unexplorable.oneThreadWithoutPoints, options: unpreempted)
        let text = try #require(report.notInterleaved)
        #expect(text.hasPrefix("thread 2 finished without reaching a scheduling point"))
        #expect(report.warning?.contains(text) == true)
        await withKnownIssue {
            await expectNoFailingSchedule(Unexplorable.oneThreadWithoutPoints, options: unpreempted)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("some threads were never interleaved")
        }
    }

    @Test("an async exploration's remedy speaks of suspensions, not of the switch alone")
    func asyncRemedy() async throws {
        let report = try await Explorer.explore(Unexplorable.asyncWithoutSuspension)
        let text = try #require(report.notInterleaved)
        #expect(text.contains("its task ran as one job"))
    }

    @Test("marks off: the remedy says the marks were ignored")
    func marksOffRemedy() async throws {
        let report = try await Explorer.explore(Unexplorable.oneThreadWithoutPoints, options: .init(marks: false))
        #expect(report.notInterleaved?.contains("marks are off") == true)
    }

    @Test("a fixed exploration that interleaves passes with no issue")
    func interleavedPasses() async {
        let clean = await expectNoFailingSchedule(ExplorerTests.lockedIncrement)
        #expect(clean?.verdict == "CLEAN")
        #expect((clean?.schedules ?? 0) > 1)
    }

    @Test("expectClean on a run that reached no window passes, with a warning that gives trials and iterations")
    func cleanWithoutWindowWarns() async {
        let stress = await RaceLabCheck.stress(
            Synthetic.clean,
            as: .fixed,
            workload: Workload(trials: 3, iterations: 7),
            seed: 5,
            noise: true
        )
        #expect(stress.failures.isEmpty)
        #expect(stress.report.verdict == .clean)
        #expect(stress.warnings.count == 1)
        #expect(stress.warnings.first?.contains("its 3 trials of 7 iterations reached no race window") == true)
        let marked = await RaceLabCheck.stress(
            OwnCode.twoWindows,
            as: .fixed,
            workload: Workload(trials: 2, iterations: 5),
            seed: 5,
            noise: true
        )
        #expect(marked.warnings.isEmpty)
    }

    @Test("expectReproduced stops at the first trial that shows the bug and says which it was")
    func reproducedStopsAtFirst() async {
        let report = await expectReproduced(Synthetic.dropping(every: 2), seed: 9)
        #expect(report.verdict == .reproduced)
        #expect(report.trials == 1)
        #expect(report.firstAnomalousTrial == 1)
    }

    @Test("expectReproduced gives up when its time is spent, and says how many trials ran")
    func reproducedGivesUpAfterTimeLimit() async throws {
        var report: VariantReport?
        let message = LockedValueBox("")
        await withKnownIssue {
            report = await expectReproduced(Synthetic.clean, seed: 3, timeLimit: .milliseconds(50))
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            message.withLockedValue { $0 = text }
            return text.contains("did not reproduce its bug in ")
        }
        #expect(report?.verdict == .notReproduced)
        let trials = try #require(report?.trials)
        #expect(trials >= 1)
        #expect(message.value.contains("did not reproduce its bug in \(trials) trials (0.05 s allowed)"))
    }

    @Test("expectFailingSchedule stops soon after the first failing schedule; expectNoFailingSchedule does not")
    func failingScheduleStops() async throws {
        let exploration = ExplorerTests.lostUpdate
        let full = try await Explorer.explore(exploration)
        #expect(full.stoppedAfterFailure == nil)
        var atFirst = ExplorationOptions()
        atFirst.schedulesAfterFailure = 0
        let first = try await Explorer.explore(exploration, options: atFirst)
        #expect(first.stoppedAfterFailure == 0)
        #expect(first.schedules == first.firstFailingSchedule)
        #expect(first.schedules < full.schedules)
        let search = await RaceLabCheck.explore(exploration, options: .init(), wantFailure: true)
        let report = try #require(search.report)
        #expect(search.failures.isEmpty)
        let searched = try #require(report.report)
        #expect(searched.stoppedAfterFailure == RaceLabCheck.schedulesAfterFailure || searched.exhaustive)
        let failing = try #require(search.failingSchedule)
        // A replay that does not fit is refused (it throws); one that runs is the failing schedule.
        let result = try await Explorer.replay(exploration, schedule: failing)
        #expect(result.outcome.isFailure)
        let stopped = report.text(heading: "h")
        #expect(
            stopped.contains("after the first failing one, the shortest kept")
                || stopped.contains(" ran (all with at most 2 preemptions), ")
        )
    }
}

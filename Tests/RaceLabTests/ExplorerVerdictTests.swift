import Foundation
import RaceLab
import RaceLabTesting
import Testing

/// What the explorer may and may not call a verdict: a step bound is not a failure, an error is not
/// the bug, a clean result says what it covered, and a replay that does not fit is refused.
@Suite("The explorer's verdicts: unfinished, error, scope, refused replays")
struct ExplorerVerdictTests {
    final class Flags: @unchecked Sendable {
        var raised = [false, false]
        let lock = RaceLock("counter lock")
        var counter = 0
    }

    struct Unrelated: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    /// Each thread takes one RaceLock `times` times: more steps than the smallest bound, but a
    /// correct program.
    static func manyLocks(_ times: Int) -> Exploration {
        Exploration(
            summary: "each thread takes the lock \(times) times; invariant: every increment kept",
            makeState: { Flags() },
            thread: { flags, _ in
                for _ in 0..<times { flags.lock.withLock { flags.counter += 1 } }
            },
            invariant: { flags, threads in
                flags.counter == threads * times ? nil : "counter is \(flags.counter)"
            }
        )
    }

    /// Each thread waits, through a scheduling point, for a flag only the other would raise after
    /// its own wait: neither ever finishes, under any schedule, run freely or not.
    static let livelock = Exploration(
        summary: "each thread polls for the other's flag before raising its own",
        makeState: { Flags() },
        thread: { flags, index in
            while !flags.raised[1 - index] { Race.step("poll the other flag") }
            flags.raised[index] = true
        },
        invariant: { _, _ in nil }
    )

    /// A thread throws an error that has nothing to do with the invariant.
    static let throwing = Exploration(
        summary: "thread 1 throws an unrelated error; invariant: nothing",
        makeState: { Flags() },
        thread: { _, index in
            Race.step("work")
            if index == 1 { throw Unrelated() }
        },
        invariant: { _, _ in nil }
    )

    @Test("two threads each taking a RaceLock 501 times explore clean: the bound scales with the program")
    func longCorrectProgramIsClean() async throws {
        let report = try await Explorer.explore(Self.manyLocks(501), options: .init(preemptions: 0))
        #expect(report.exhaustive)
        #expect(report.failure == nil)
        #expect(report.unfinishedSchedules == 0)
        #expect(report.stepBound >= 10 * 2 * 501)
        #expect(VariantExploration(name: "locks", kind: .fixed, report: report).verdict == "CLEAN")
    }

    @Test("a step bound given and reached is INCONCLUSIVE with the remedy, never a failure")
    func givenBoundIsInconclusive() async throws {
        let report = try await Explorer.explore(Self.manyLocks(501), options: .init(preemptions: 0, stepBound: 100))
        #expect(report.failure == nil)
        #expect(report.failingSchedules == 0)
        #expect(report.unfinishedSchedules > 0)
        #expect(report.firstUnfinished?.outcome == .stepBoundExceeded(100))
        for kind in [VariantKind.buggy, .fixed] {
            let entry = VariantExploration(name: "locks", kind: kind, report: report)
            #expect(entry.verdict == "INCONCLUSIVE")
            #expect(!entry.isConclusive)
            #expect(entry.text(heading: "").contains("--steps"))
        }
    }

    @Test("a real livelock is INCONCLUSIVE after its first schedule, and nothing is called failing")
    func livelockStopsAtOnce() async throws {
        let report = try await Explorer.explore(Self.livelock)
        #expect(report.schedules == 1)
        #expect(report.failure == nil)
        #expect(report.unfinishedSchedules == 1)
        #expect(report.abandoned == ExecutionOutcome.stepBoundExceeded(report.stepBound).summary)
        let entry = VariantExploration(name: "livelock", kind: .buggy, report: report)
        #expect(entry.verdict == "INCONCLUSIVE")
        #expect(entry.text(heading: "").contains("(stopped: a livelock)"))
    }

    @Test("an error thrown by a thread is an ERROR, not a failing schedule")
    func errorIsNotTheBug() async throws {
        let report = try await Explorer.explore(Self.throwing)
        #expect(report.failure == nil)
        #expect(report.failingSchedules == 0)
        #expect(report.errorSchedules == report.schedules)
        #expect(report.firstError?.outcome == .threw(thread: 1, message: "disk full"))
        for kind in [VariantKind.buggy, .fixed] {
            let entry = VariantExploration(name: "throwing", kind: kind, report: report)
            #expect(entry.verdict == "ERROR")
            #expect(!entry.asExpected && !entry.isConclusive)
            #expect(entry.text(heading: "").contains("SCHEDULE WITH AN ERROR"))
        }
    }

    @Test("an exploration that declares errors its failure fails on one")
    func declaredErrorIsTheFailure() async throws {
        let report = try await Explorer.explore(Self.throwing.treatingErrorsAsFailures())
        #expect(report.failure?.outcome == .threw(thread: 1, message: "disk full"))
        #expect(report.errorSchedules == 0)
        #expect(VariantExploration(name: "throwing", kind: .buggy, report: report).verdict == "FOUND")
    }

    @Test("an exhaustive clean verdict names threads, bound, reduction and what ran as one step")
    func exhaustiveScope() async throws {
        let report = try await Explorer.explore(ExplorerTests.lockedIncrement)
        let entry = VariantExploration(name: "locked", kind: .fixed, report: report)
        #expect(entry.verdict == "CLEAN")
        // In words for the room; the precise form, with the reduction's name, for --json.
        let coverage = "every schedule of 2 threads and the work they start, with at most 2 preemptions"
        #expect(entry.verdictLine == "  verdict: CLEAN (\(coverage))")
        #expect(entry.scope == "every schedule of 2 threads with at most 2 preemptions, reduction none")
        #expect(entry.granularity?.contains("ThreadSanitizer") == true)
    }

    @Test("variants explored in one run: the scope printed last reads 'as above', what a step is is said once")
    func saidOnceARun() async throws {
        let report = try await Explorer.explore(ExplorerTests.lockedIncrement)
        let entry = VariantExploration(name: "locked", kind: .fixed, report: report)
        let scope = "every schedule of 2 threads and the work they start, with at most 2 preemptions"
        let preemption = "  a preemption: the explorer switches away from a thread that could go on"
        let step = [
            "  each step: code from one scheduling point to the next, named after the point it starts at",
            "  a data race inside a step is ThreadSanitizer's to find",
        ]
        var said = ExplorationTextMemory()
        let first = entry.text(heading: "first", verbose: false, after: &said).split(separator: "\n")
        let second = entry.text(heading: "second", verbose: false, after: &said).split(separator: "\n")
        #expect(first[1] == "  verdict: CLEAN (\(scope))")
        #expect(first[2].hasPrefix("  \(report.schedules) schedules ran, 0 failed, in "))
        #expect(first[3] == preemption)
        #expect(first.suffix(2).map(String.init) == step)
        #expect(second[1] == "  verdict: CLEAN (the same scope as above)")
        #expect(second[2] == first[2])
        #expect(
            second.count == first.count - 3
                && !second.contains { $0.hasPrefix("  each step:") || $0.hasPrefix("  a preemption:") }
                && !second.contains { $0 == step[1] }
        )
        // Alone, a variant's text says it all.
        #expect(
            entry.text(heading: "alone", verbose: false).split(separator: "\n")
                == first.map { $0 == "first" ? "alone" : $0 }
        )
    }

    @Test(
        "only a preemption-bounded search defines a preemption",
        arguments: [ExplorationOptions.Strategy.dfs, .pct, .random]
    )
    func preemptionDefinedForBoundedSearchOnly(strategy: ExplorationOptions.Strategy) async throws {
        let report = try await Explorer.explore(
            ExplorerTests.lockedIncrement,
            options: .init(strategy: strategy, schedules: 5)
        )
        #expect(report.isPreemptionBounded == (strategy == .dfs))
        let text = VariantExploration(name: "locked", kind: .fixed, report: report).text(heading: "h", verbose: false)
        #expect(text.contains("  a preemption: the explorer switches away") == (strategy == .dfs))
    }

    @Test("async with marks off: a race inside one job is not seen, and the verdict says each job ran as one step")
    func asyncGranularity() async throws {
        // A real race (the stress runner shows it), but read, sleep and write are one job: one step.
        let exploration = Exploration(
            summary: "two tasks bump a plain counter across a sleep; invariant: counter == threads",
            makeState: { Flags() },
            asyncThread: { flags, _ in
                await Task {
                    let value = flags.counter
                    usleep(100)
                    flags.counter = value + 1
                }.value
            },
            invariant: { flags, threads in flags.counter == threads ? nil : "counter is \(flags.counter)" }
        )
        let report = try await Explorer.explore(exploration, options: .init(marks: false))
        #expect(report.jobsWereSteps)
        let entry = VariantExploration(name: "jobs", kind: .fixed, report: report)
        #expect(entry.granularity?.hasPrefix("each Swift concurrency job") == true)
        let text = entry.text(heading: "")
        #expect(text.contains("a data race inside a step is ThreadSanitizer's to find"))
        #expect(entry.verdict == "CLEAN")
        #expect(entry.verdictLine.contains("every schedule of 2 tasks and the work they start"))
    }

    @Test("a fixed search cut by the schedule limit is CLEAN, NOT EXHAUSTIVE: no verdict on the fix")
    func notExhaustiveIsSaid() async throws {
        let report = try await Explorer.explore(ExplorerTests.lockedIncrement, options: .init(schedules: 1))
        #expect(!report.exhaustive)
        let entry = VariantExploration(name: "locked", kind: .fixed, report: report)
        #expect(entry.verdict == "CLEAN, NOT EXHAUSTIVE")
        #expect(!entry.asExpected && !entry.isConclusive)
        #expect(entry.verdictLine.contains("the schedule limit (--schedules) stopped the search after 1 schedules"))
    }

    @Test("a found schedule's replay string names its program; it replays there and is refused elsewhere")
    func replayIdentity() async throws {
        let failure = try #require(try await Explorer.explore(ExplorerTests.lostUpdate).failure)
        let text = failure.schedule.replayString
        let parsed = try #require(Schedule(replayString: text))
        #expect(parsed.program == ExplorerTests.lostUpdate.fingerprint(marks: true))
        #expect(try await Explorer.replay(ExplorerTests.lostUpdate, schedule: parsed).outcome == failure.outcome)
        let elsewhere = await #expect(throws: ReplayRefusal.self) {
            try await Explorer.replay(ExplorerTests.lockedIncrement, schedule: parsed)
        }
        #expect(elsewhere?.reason.contains("another program") == true)
        let marksOff = await #expect(throws: ReplayRefusal.self) {
            try await Explorer.replay(ExplorerTests.lostUpdate, schedule: parsed, options: .init(marks: false))
        }
        #expect(marksOff?.reason.contains("--marks on") == true)
    }

    @Test(
        "a replay that does not fit is refused with the reason",
        arguments: [
            ([0, 1, 9, 1], "chooses thread 9, which does not exist"),
            ([0, 1, 0, 1, 1, 0], "the program finished after 4"),
            ([0, 1, 0], "took 4 (cut short?)"),
        ]
    )
    func misfitRefused(choices: [Int], reason: String) async throws {
        let program = ExplorerTests.lostUpdate.fingerprint(marks: true)
        let schedule = Schedule(threads: 2, choices: choices, program: program)
        let refusal = await #expect(throws: ReplayRefusal.self) {
            try await Explorer.replay(ExplorerTests.lostUpdate, schedule: schedule)
        }
        #expect(refusal?.reason.contains(reason) == true, "\(refusal?.reason ?? "")")
    }

    @Test("replay strings without a program, or with a broken fingerprint, are refused when parsed")
    func oldStringsRefused() {
        #expect(throws: ReplayRefusal.self) { try Schedule.parse("2:0.1.0.1") }
        #expect(Schedule(replayString: "2:0.1.0.1") == nil)
        #expect(Schedule(replayString: "2:0.1.0.1@3fa9") == nil)
        #expect(Schedule(replayString: "2:0.1.0.1@3fa9zz") == nil)
        #expect(Schedule(replayString: "2:0.1.0.1@3fa9c1")?.choices == [0, 1, 0, 1])
        #expect(Schedule(replayString: "3:@3fa9c1") == Schedule(threads: 3, choices: [], program: "3fa9c1"))
    }

    @Test("expectNoFailingSchedule and expectFailingSchedule record an issue for an error, never pass or find on it")
    func checksRecordErrors() async {
        for wantFailure in [false, true] {
            await withKnownIssue {
                if wantFailure {
                    _ = await expectFailingSchedule(Self.throwing)
                } else {
                    _ = await expectNoFailingSchedule(Self.throwing)
                }
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains("errors, not evidence either way")
            }
        }
    }

    @Test("expectNoFailingSchedule records an issue for a livelock: inconclusive, not clean")
    func checksRecordLivelock() async {
        await withKnownIssue {
            _ = await expectNoFailingSchedule(Self.livelock)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("inconclusive")
        }
    }
}

import Foundation
import RaceLab
import RaceLabTesting
import Testing

/// Scenarios for the test-framework checks, with outcomes known before they run.
enum OwnCode {
    /// Two marked windows per operation around a locked increment: clean, and every window counted.
    static let twoWindows = Variant(
        name: "two-windows",
        kind: .fixed,
        summary: "two marked windows around a locked increment",
        makeState: { LockedValueBox(0) },
        operation: { counter, _ in
            Race.window("before")
            counter.withLockedValue { $0 += 1 }
            Race.window("after")
        },
        check: { counter, trial in .kept(counter.value, of: trial.iterations) }
    )

    /// Two threads append their index to `order`, with a window between them; the invariant holds
    /// unless `forbiddenFirst` went first. Every state made is kept in `states`, so a test sees which
    /// schedule ran first.
    final class Order: @unchecked Sendable {
        var order: [Int] = []
    }

    /// A replay string of `whoGoesFirst(forbiddenFirst:states:)`: `decisions` and the program's fingerprint.
    static func pin(_ decisions: String, forbiddenFirst: Int) -> String {
        decisions + "@" + whoGoesFirst(forbiddenFirst: forbiddenFirst, states: .init([])).fingerprint(marks: true)
    }

    static func whoGoesFirst(forbiddenFirst: Int, states: LockedValueBox<[Order]>) -> Exploration {
        Exploration(
            summary: "two threads append their index; invariant: thread \(forbiddenFirst) does not go first",
            makeState: {
                let state = Order()
                states.withLockedValue { $0.append(state) }
                return state
            },
            thread: { state, index in
                Race.window("append")
                state.order.append(index)
            },
            invariant: { state, _ in
                state.order.first == forbiddenFirst ? "thread \(forbiddenFirst) went first" : nil
            }
        )
    }
}

@Suite("Checking your own code: expectations that fail with the report")
struct CheckingOwnCodeTests {
    @Test("expectClean on a variant that loses writes says what happened and how to re-run it")
    func expectCleanFailureMessage() async {
        let message = [
            "expectClean: 'drops-every-4' is not clean (FAILED)", "▸ drops-every-4 [fixed]",
            "OUTCOME", "FORBIDDEN", "6/8", "✗ FAILED: anomalies in 3 of 3 trials",
            "@Test(.raceLab(seed: 7))", "RACELAB_SEED=7",
        ]
        let line = #line + 2
        await expectKnownIssue(at: line, saying: message) {
            await expectClean(Synthetic.dropping(every: 4), workload: Workload(trials: 3, iterations: 8), seed: 7)
        }
    }

    @Test("expectReproduced on a variant with no window says that no window was reached")
    func expectReproducedWithoutWindows() async throws {
        var report: VariantReport?
        let message = LockedValueBox("")
        await withKnownIssue {
            report = await expectReproduced(
                Synthetic.clean,
                workload: Workload(trials: 2, iterations: 4),
                seed: 3,
                timeLimit: .milliseconds(1)
            )
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            message.withLockedValue { $0 = text }
            return text.contains("did not reproduce its bug in ") && text.contains(VariantReport.noWindowReached)
        }
        #expect(report?.windowsReached == 0)
        #expect(report?.verdict == .notReproduced)
        // The workload's trials all run; how many more fit in the time limit depends on the machine.
        let trials = try #require(report?.trials)
        #expect(trials >= 2)
        #expect(
            message.value.contains("did not reproduce its bug in \(trials) trials (0.001 s allowed) (NOT REPRODUCED)")
        )
    }

    @Test("expectReproduced and expectClean pass quietly when the verdict is the one asked for")
    func passingChecks() async {
        let reproduced = await expectReproduced(
            Synthetic.dropping(every: 2),
            workload: Workload(trials: 2, iterations: 6),
            seed: 11
        )
        #expect(reproduced.verdict == .reproduced)
        #expect(reproduced.kind == .buggy)
        #expect(reproduced.seed == 11)
        let clean = await expectClean(OwnCode.twoWindows, workload: Workload(trials: 2, iterations: 6), seed: 11)
        #expect(clean.verdict == .clean)
    }

    @Test("Variant.judged(as:) keeps the code and changes the verdict", arguments: [VariantKind.buggy, .fixed])
    func judged(kind: VariantKind) async {
        let variant = Synthetic.dropping(every: 3).judged(as: kind)
        #expect(variant.kind == kind)
        let report = await StressRunner.run(variant, trials: 2, iterations: 6)
        #expect(report.verdict == (kind == .buggy ? .reproduced : .failed))
    }

    @Test("The runner counts every window reached, with noise on and off", arguments: [true, false])
    func windowsReached(noise: Bool) async {
        let report = await StressRunner.run(OwnCode.twoWindows, trials: 3, iterations: 50, noise: noise)
        #expect(report.windowsReached == 3 * 50 * 2)
        #expect(!report.text.contains(VariantReport.noWindowReached))
        let none = await StressRunner.run(Synthetic.clean, trials: 3, iterations: 50, noise: noise)
        #expect(none.windowsReached == 0)
        #expect(none.text.contains("note: " + VariantReport.noWindowReached))
    }

    @Test("A lesson's report advises marking windows under buggy variants only; a check of own code under every one")
    func noWindowAdviceByAudience() async {
        let fixed = await StressRunner.run(Synthetic.clean, trials: 2, iterations: 10)
        let buggy = await StressRunner.run(Synthetic.clean.judged(as: .buggy), trials: 2, iterations: 10)
        #expect(fixed.windowsReached == 0 && buggy.windowsReached == 0)
        let note = "note: " + VariantReport.noWindowReached
        #expect(!TextReport(lessonVariants: true).variant(fixed).contains(note))
        #expect(TextReport(lessonVariants: true).variant(buggy).contains(note))
        #expect(TextReport().variant(fixed).contains(note))
        #expect(fixed.text.contains(note))
    }

    @Test("expectNoFailingSchedule prints the failing schedule's timeline and the line that pins it")
    func noFailingScheduleMessage() async throws {
        var report: VariantExploration?
        let message = [
            "expectNoFailingSchedule: a schedule fails", "FAILING SCHEDULE", "thread 0", "thread 1",
            "counter is 1, expected 2", "RACELAB_REPLAY=", "@Test(.raceLabReplay(\"",
        ]
        let line = #line + 2
        await expectKnownIssue(at: line, saying: message) {
            report = await expectNoFailingSchedule(ExplorerTests.lostUpdate)
        }
        let replay = try #require(report?.failure?.replay)
        #expect(report?.verdict == "FAILED")
        // The replay string printed is one that fails again.
        let schedule = try #require(Schedule(replayString: replay))
        let result = try await Explorer.replay(ExplorerTests.lostUpdate, schedule: schedule)
        #expect(result.outcome.isFailure)
    }

    @Test("expectFailingSchedule returns a schedule that fails; a fixed exploration has none")
    func failingSchedule() async throws {
        let schedule = try #require(await expectFailingSchedule(ExplorerTests.lostUpdate))
        let result = try await Explorer.replay(ExplorerTests.lostUpdate, schedule: schedule)
        #expect(result.outcome.isFailure)
        let clean = await expectNoFailingSchedule(ExplorerTests.lockedIncrement)
        #expect(clean?.verdict == "CLEAN")
        await withKnownIssue {
            await expectFailingSchedule(ExplorerTests.lockedIncrement)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("expectFailingSchedule: no failing schedule found")
        }
    }

    @Test("A pinned schedule that fails is replayed first and reported without a search")
    func pinnedFailingSchedule() async throws {
        let states = LockedValueBox<[OwnCode.Order]>([])
        let exploration = OwnCode.whoGoesFirst(forbiddenFirst: 1, states: states)
        let schedule = try #require(await expectFailingSchedule(exploration))
        var report: VariantExploration?
        await withKnownIssue {
            report = await RaceLabPins.$replays.withValue([schedule]) {
                await expectNoFailingSchedule(exploration)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("the pinned schedule \(schedule) fails")
        }
        #expect(report?.mode == .replay)
        #expect(report?.schedules == 1)
    }

    @Test("A pinned schedule that passes runs first, then the search")
    func pinnedPassingSchedule() async throws {
        let finder = LockedValueBox<[OwnCode.Order]>([])
        // The schedule in which thread 1 goes first; it passes the exploration that forbids thread 0.
        let threadOneFirst = try #require(
            await expectFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 1, states: finder))
        )
        let unpinned = LockedValueBox<[OwnCode.Order]>([])
        await expectFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 0, states: unpinned))
        // Without a pin the search starts with thread 0; so a first run with thread 1 first is the pin's.
        #expect(unpinned.value.first?.order == [0, 1])

        let pinned = LockedValueBox<[OwnCode.Order]>([])
        // The same decisions on the other exploration: a schedule made in code names no program.
        let decisions = Schedule(threads: threadOneFirst.threads, choices: threadOneFirst.choices)
        let found = await RaceLabPins.$replays.withValue([decisions]) {
            await expectFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 0, states: pinned))
        }
        #expect(pinned.value.first?.order == [1, 0])
        #expect(pinned.value.count > 1)
        #expect(found != nil && found != threadOneFirst)
    }

    @Test(
        "The .raceLabReplay trait runs its schedule first: one that fails decides",
        .raceLabReplay(OwnCode.pin("2:1.0", forbiddenFirst: 1))
    )
    func replayTraitFailing() async {
        let states = LockedValueBox<[OwnCode.Order]>([])
        var report: VariantExploration?
        await withKnownIssue {
            report = await expectNoFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 1, states: states))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "the pinned schedule \(OwnCode.pin("2:1.0", forbiddenFirst: 1)) fails"
            )
        }
        #expect(report?.mode == .replay)
        #expect(states.value.map(\.order) == [[1, 0]])
    }

    @Test(
        "The .raceLabReplay trait runs its schedule first: one that passes, then the search",
        .raceLabReplay(OwnCode.pin("2:1.0", forbiddenFirst: 0))
    )
    func replayTraitPassing() async {
        let states = LockedValueBox<[OwnCode.Order]>([])
        let found = await expectFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 0, states: states))
        #expect(states.value.first?.order == [1, 0])
        #expect(states.value.count > 1)
        #expect(found?.replayString != OwnCode.pin("2:1.0", forbiddenFirst: 0))
    }

    @Test(
        "A pinned schedule of another program is refused with an issue at the caller, and never run",
        .raceLabReplay(OwnCode.pin("2:1.0", forbiddenFirst: 1))
    )
    func replayTraitOfAnotherProgram() async {
        let states = LockedValueBox<[OwnCode.Order]>([])
        await withKnownIssue {
            _ = await expectFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 0, states: states))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains(
                "was refused: the replay string belongs to another program"
            )
        }
        // The search ran (and found thread 0 first); the pinned [1, 0] did not run first.
        #expect(states.value.first?.order == [0, 1])
    }

    @Test("A pinned schedule that does not fit the program is refused, not run as another")
    func replayTraitMisfit() async {
        let states = LockedValueBox<[OwnCode.Order]>([])
        await RaceLabPins.$replays.withValue([Schedule(replayString: OwnCode.pin("2:1.0.1", forbiddenFirst: 2))!]) {
            await withKnownIssue {
                _ = await expectNoFailingSchedule(OwnCode.whoGoesFirst(forbiddenFirst: 2, states: states))
            } matching: { issue in
                issue.comments.map(\.rawValue).joined().contains("was refused")
            }
        }
    }

    @Test("RACELAB_SEED and RACELAB_REPLAY are read, and a malformed one is a clear error")
    func environment() throws {
        #expect(try RaceLabPins.resolvedSeed(nil, environment: ["RACELAB_SEED": "0x2a"]) == 42)
        #expect(try RaceLabPins.resolvedSeed(5, environment: ["RACELAB_SEED": "42"]) == 5)
        #expect(
            try RaceLabPins.resolvedReplays(environment: ["RACELAB_REPLAY": "2:0.1@0a1b2c, 3:2@3d4e5f"])
                .map(\.replayString) == ["2:0.1@0a1b2c", "3:2@3d4e5f"]
        )
        #expect(throws: RaceLabPins.Malformed.self) {
            try RaceLabPins.resolvedSeed(nil, environment: ["RACELAB_SEED": "soon"])
        }
        do {
            _ = try RaceLabPins.resolvedReplays(environment: ["RACELAB_REPLAY": "two"])
            Issue.record("a malformed RACELAB_REPLAY was accepted")
        } catch {
            #expect(error.description.hasPrefix("RACELAB_REPLAY holds 'two': not a replay string like '2:0.1.0.1@"))
        }
        do {
            _ = try RaceLabPins.resolvedReplays(environment: ["RACELAB_REPLAY": "2:0.1"])
            Issue.record("a replay string without its program was accepted")
        } catch {
            #expect(error.description.contains("names no program"))
        }
    }

    @Test("The .raceLab(seed:) trait pins the seed of every stress check in the test", .raceLab(seed: 4242))
    func seedTrait() async {
        #expect(RaceLabPins.seed == 4242)
        let report = await expectClean(OwnCode.twoWindows, workload: Workload(trials: 1, iterations: 4))
        #expect(report.seed == 4242)
    }

    @Test("ExplorationReport.text shows the search, the timeline and the replay string")
    func explorationReportText() async throws {
        let report = try await Explorer.explore(ExplorerTests.lostUpdate)
        let replay = try #require(report.failure?.schedule.replayString)
        #expect(report.text.contains("strategy dfs, 2 threads, at most 2 preemptions"))
        #expect(report.text.contains("  replay: \(replay)"))
        #expect(report.text.contains("step  thread 0"))
    }
}

#if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows) || os(FreeBSD) || os(OpenBSD))
@Suite("A check in an exit test runs in a child process")
struct IsolatedCheckTests {
    /// Traps in its first iteration, as a corrupted `Dictionary` would.
    static let traps = Variant(
        name: "traps",
        kind: .buggy,
        summary: "traps in its first iteration",
        makeState: { LockedValueBox(0) },
        operation: { _, iteration in precondition(iteration.index != 0, "corrupted on purpose") },
        check: { _, _ in .executions(1) }
    )

    @Test("a failing expectClean's issue, report included, comes back from the child process")
    func failingCheck() async {
        await withKnownIssue {
            await #expect(processExitsWith: .success) {
                await expectClean(Synthetic.dropping(every: 4), workload: Workload(trials: 2, iterations: 8), seed: 1)
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.contains("expectClean: 'drops-every-4' is not clean (FAILED)") && text.contains("FORBIDDEN")
        }
    }

    @Test("a passing check exits with success")
    func passingCheck() async {
        await #expect(processExitsWith: .success) {
            await expectClean(Synthetic.clean, workload: Workload(trials: 2, iterations: 8), seed: 1)
        }
    }

    @Test("a variant that traps takes only its child process down")
    func trappingVariant() async {
        await #expect(processExitsWith: .failure) {
            await expectReproduced(IsolatedCheckTests.traps, workload: Workload(trials: 1, iterations: 4), seed: 1)
        }
    }
}
#endif

@Suite("Observation.eachExactlyOnce")
struct EachExactlyOnceTests {
    @Test("every item once is clean")
    func clean() {
        let observation = Observation.eachExactlyOnce([3, 1, 2], of: 1...3, unit: "jobs")
        #expect(!observation.isAnomalous)
        #expect(observation.outcome == "each once")
        #expect(observation.meaning == "all 3 jobs handed out exactly once")
    }

    @Test("missing, duplicated and unknown items are counted apart")
    func anomalies() {
        let observation = Observation.eachExactlyOnce([1, 1, 1, 2, 9], of: 1...4, unit: "jobs")
        #expect(observation.lostWrites == 2)
        #expect(observation.duplicates == 2)
        #expect(observation.inconsistencies == 1)
        #expect(observation.outcome == "2 missing, 2 duplicated, 1 unknown")
        #expect(
            observation.meaning
                == "2 jobs never handed out; 1 job handed out more than once (2 extra); 1 hand-out of jobs never put in"
        )
    }

    @Test("one duplicate is singular")
    func singular() {
        #expect(Observation.executions(2, expected: 1, unit: "renders").meaning == "1 duplicate render")
        #expect(Observation.executions(3, expected: 1, unit: "renders").meaning == "2 duplicate renders")
    }
}

import Foundation
import Testing

/// `racelab explore` end to end: the built binary, its timeline, its replay string.
@Suite("racelab explore prints and replays the schedule that breaks a lesson")
struct ExploreCommandLineTests {
    @Test("lesson 1's buggy store: the timeline of both gets before either set, and a replay that fails")
    func lessonOneTimelineAndReplay() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "buggy", "--verbose")
        #expect(output.status == 0)
        // The two gets are plain items of a concurrent queue: they commute, so 10 schedules are 6 traces.
        #expect(output.stdout.contains("10 schedules ran (all with at most 2 preemptions), 8 failed, in "))
        #expect(output.stdout.contains("6 distinct traces: schedules that differ only in the order of independent"))
        #expect(output.stdout.contains(" ms per schedule: set-up "))
        #expect(output.stdout.contains("FAILING SCHEDULE (6 steps): invariant broken: kept 1 of 2 keys"))
        let replayLine = try #require(output.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        for _ in 0..<3 {
            let again = try await Executable.racelab.run("explore", "1", "--variant", "buggy", "--replay", replay)
            #expect(again.status == 0)
            #expect(again.stdout.contains("verdict: REPRODUCED"))
        }
    }

    @Test("auto by default (none for lesson 1, states for state-object), the reduction used named, a bad one refused")
    func reductionOption() async throws {
        let plain = try await Executable.racelab.run("explore", "1", "--variant", "buggy", "--verbose")
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("reduction none"))
        #expect(plain.stdout.contains("10 schedules ran (all with at most 2 preemptions), 8 failed"))
        #expect(plain.stdout.contains("6 distinct traces"))
        let output = try await Executable.racelab.run(
            "explore",
            "1",
            "--variant",
            "buggy",
            "--reduction",
            "dpor",
            "--verbose"
        )
        #expect(output.status == 0)
        #expect(output.stdout.contains("reduction dpor"))
        // Lesson 1's window names no object: it depends on every other step, so no schedule is
        // skipped here, though the two gets (plain items of a concurrent queue) commute.
        #expect(
            output.unwrappedStdout.contains(
                "10 schedules ran (at most 2 preemptions, reorderings of independent steps skipped), 8 failed"
            )
        )
        #expect(output.stdout.contains("6 distinct traces"))
        // state-object declares complete footprints: auto is states, and it covers the same traces
        // as none in fewer schedules.
        let automatic = try await Executable.racelab.run("explore", "6", "--variant", "state-object", "--verbose")
        let none = try await Executable.racelab.run(
            "explore",
            "6",
            "--variant",
            "state-object",
            "--reduction",
            "none",
            "--verbose"
        )
        #expect(automatic.status == 0)
        #expect(none.status == 0)
        #expect(automatic.stdout.contains("reduction states"))
        #expect(
            automatic.unwrappedStdout.contains(
                "verdict: CLEAN (every schedule of 2 threads and the work they start, with at most 2 preemptions; "
                    + "reorderings of independent steps (same outcome) skipped; "
                    + "a state already searched is not searched again)"
            )
        )
        #expect(
            none.unwrappedStdout.contains(
                "verdict: CLEAN (every schedule of 2 threads and the work they start, with at most 2 preemptions)"
            )
        )
        #expect(
            automatic.unwrappedStdout.contains(
                "27 schedules ran (at most 2 preemptions, reorderings of independent steps skipped), 0 failed"
            )
        )
        #expect(automatic.stdout.contains("18 distinct traces"))
        #expect(none.stdout.contains("121 schedules ran (all with at most 2 preemptions), 0 failed"))
        #expect(none.stdout.contains("18 distinct traces"))
        let bad = try await Executable.racelab.run("explore", "1", "--reduction", "sleep")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--reduction must be auto, none, dpor or states, got 'sleep'"))
    }

    @Test("the fixed store: every schedule explored, none failing, exit 0")
    func fixedIsClean() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "fixed", "--threads", "3", "--json")
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"exhaustive\" : true"))
        #expect(output.stdout.contains("\"failingSchedules\" : 0"))
    }

    @Test("two locks in opposite orders, and a sync onto one's own queue: deadlocks, with where each thread waits")
    func deadlockIsReported() async throws {
        let output = try await Executable.fixtures.run("explore", "deadlock")
        #expect(output.status == 0)
        #expect(
            output.unwrappedStdout.contains(
                "deadlock: thread 0 waits at 'lock checking' (held by thread 1); thread 1 waits at 'lock savings' (held by thread 0)"
            )
        )
        #expect(output.stdout.contains("variant one-order [fixed]"))
        #expect(
            output.unwrappedStdout.contains(
                "deadlock: thread 0 waits at 'sync budget' (held by thread 0); thread 1 waits at 'sync budget' (held by thread 0)"
            )
        )
        #expect(output.stdout.contains("variant read-inside-item [fixed]"))
    }

    @Test("a window inside an NSLock: stuck, with the cause and the fix; no scheduling point: nothing explored")
    func stuckAndNothingExplored() async throws {
        let output = try await Executable.fixtures.run("explore", "stuck", "--stall", "3")
        #expect(output.status == 3, "an inconclusive variant has no verdict: the status of an error")
        #expect(output.stdout.contains("1 schedule ran (stopped: a thread got stuck), 0 failed"))
        #expect(!output.stdout.contains("schedule limit reached"))
        #expect(output.stdout.contains("  stuck: thread 1, last scheduling point none (it was running its set-up)"))
        #expect(output.unwrappedStdout.contains("thread 0 (paused at 'add one') reached a scheduling point inside"))
        #expect(output.stdout.contains("  fix: use RaceLock, RaceRecursiveLock or RaceQueue"))
        #expect(output.stdout.contains("verdict: INCONCLUSIVE"))
        #expect(
            output.unwrappedStdout.contains(
                "warning: threads 0 and 1 finished without reaching a scheduling point; each ran from its start "
                    + "to its end as one step"
            )
        )
        let json = try await Executable.fixtures.run(
            "explore",
            "stuck",
            "--variant",
            "window-in-nslock",
            "--stall",
            "3",
            "--json"
        )
        #expect(json.stdout.contains("\"cause\" : \"window-in-critical-section\""))
    }

    @Test("explore all: every lesson, exit 0 when every verdict is as expected")
    func exploreAll() async throws {
        let output = try await Executable.racelab.run("explore", "all", "--json")
        #expect(output.status == 0)
        for slug in ["subscript-race", "check-then-act", "actor-reentrancy", "coordinator-locking", "persistent-store"]
        {
            #expect(output.stdout.contains("\"slug\" : \"\(slug)\""))
        }
        // The lesson shape and the schema version every document shares.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let lessons = try #require(document["lessons"] as? [[String: Any]])
        #expect(lessons.compactMap { $0["number"] as? Int } == Array(1...6))
        #expect(lessons.allSatisfy { $0["title"] is String && $0["lesson"] == nil })
    }

    @Test("a whole lesson's exploration names the variants it leaves out, and why; one variant's does not")
    func exploreNamesUnexploredVariants() async throws {
        let line = "not explored in lesson 4: cross-process (its increments run in worker processes, which"
        let lesson = try await Executable.racelab.run("explore", "4")
        #expect(lesson.status == 0)
        #expect(lesson.stdout.contains(line))
        #expect(lesson.stdout.contains("  cannot schedule)"))
        let variant = try await Executable.racelab.run("explore", "4", "--variant", "same-owner")
        #expect(variant.status == 0)
        #expect(!variant.stdout.contains("not explored"))
        // Lesson 1 explores every variant it has: no such line.
        let every = try await Executable.racelab.run("explore", "1")
        #expect(!every.stdout.contains("not explored"))
    }

    @Test("an unknown strategy is bad usage: exit 2, nothing runs")
    func badStrategy() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--strategy", "bfs")
        #expect(output.status == 2)
        #expect(output.stderr.contains("--strategy must be dfs, pct or random, got 'bfs'"))
    }
}

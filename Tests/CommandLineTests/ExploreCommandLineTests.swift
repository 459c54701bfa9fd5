import Foundation
import Testing

/// `racelab explore` end to end: the built binary, its timeline, its replay string.
@Suite("racelab explore prints and replays the schedule that breaks a lesson")
struct ExploreCommandLineTests {
    @Test("lesson 1's buggy store: the timeline of both gets before either set, and a replay that fails")
    func lessonOneTimelineAndReplay() throws {
        let output = try Executable.racelab.run("explore", "1", "--variant", "buggy")
        #expect(output.status == 0)
        #expect(output.stdout.contains("6 schedules (every schedule within the bound)"))
        #expect(output.stdout.contains("FAILING SCHEDULE (4 steps): invariant broken: kept 1 of 2 keys"))
        let replayLine = try #require(output.stdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        for _ in 0..<3 {
            let again = try Executable.racelab.run("explore", "1", "--variant", "buggy", "--replay", replay)
            #expect(again.status == 0)
            #expect(again.stdout.contains("verdict: REPRODUCED"))
        }
    }

    @Test("the fixed store: every schedule explored, none failing, exit 0")
    func fixedIsClean() throws {
        let output = try Executable.racelab.run("explore", "1", "--variant", "fixed", "--threads", "3", "--json")
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"exhaustive\" : true"))
        #expect(output.stdout.contains("\"failingSchedules\" : 0"))
    }

    @Test("two locks in opposite orders, and a sync onto one's own queue: deadlocks, with where each thread waits")
    func deadlockIsReported() throws {
        let output = try Executable.fixtures.run("explore", "deadlock")
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "deadlock: thread 0 waits at 'lock checking' (held by thread 1); thread 1 waits at 'lock savings' (held by thread 0)"
            )
        )
        #expect(output.stdout.contains("variant one-order [fixed]"))
        #expect(
            output.stdout.contains(
                "deadlock: thread 0 waits at 'sync budget' (held by thread 0); thread 1 waits at 'sync budget' (held by thread 0)"
            )
        )
        #expect(output.stdout.contains("variant read-inside-item [fixed]"))
    }

    @Test("an unknown strategy is bad usage: exit 2, nothing runs")
    func badStrategy() throws {
        let output = try Executable.racelab.run("explore", "1", "--strategy", "bfs")
        #expect(output.status == 2)
        #expect(output.stderr.contains("--strategy must be dfs, pct or random, got 'bfs'"))
    }
}

import Foundation
import Testing

/// Lesson 3's `UIActor` variants explored with marks off, by the built `racelab`, the way a user
/// runs them. Not in the lesson's own test target: `UIActor` is one actor for the whole process,
/// and other tests there run on it at the same time, outside any exploration, where a job of
/// theirs would run the explorer's next job unseen. The tool runs nothing beside an exploration.
@Suite("Lesson 3's UIActor variants explored with marks off")
struct UIActorUnmarkedCommandLineTests {
    @Test("main-actor-update: a failing schedule made of jobs alone, which replays 100 of 100 times")
    func mainActorUpdateIsFound() throws {
        let output = try Executable.racelab.run("explore", "3", "--marks", "off", "--variant", "main-actor-update")
        #expect(output.status == 0)
        #expect(output.stdout.contains(" schedules ran (all with at most 2 preemptions), "))
        #expect(output.stdout.contains("invariant broken: item 0 has updates "))
        #expect(output.stdout.contains("verdict: FOUND"))
        // No mark is a point: the lesson's marks (`call updateItem`, `write back the list it read`) never appear.
        #expect(!output.stdout.contains("call updateItem") && !output.stdout.contains("write back the list it read"))
        let replayLine = try #require(output.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        var reproduced = 0
        for _ in 0..<100 {
            let again = try Executable.racelab.run(
                "explore",
                "3",
                "--marks",
                "off",
                "--variant",
                "main-actor-update",
                "--replay",
                replay
            )
            if again.status == 0 && again.stdout.contains("verdict: REPRODUCED") { reproduced += 1 }
        }
        #expect(reproduced == 100)
    }

    @Test("main-actor-one-job: every schedule within the bound explored, none failing")
    func mainActorOneJobIsClean() throws {
        let output = try Executable.racelab.run("explore", "3", "--marks", "off", "--variant", "main-actor-one-job")
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "verdict: CLEAN (every schedule of 2 tasks and the work they start, with at most 2 preemptions)"
            )
        )
        #expect(output.stdout.contains(" schedules ran, 0 failed, in "))
    }
}

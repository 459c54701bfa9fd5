import Foundation
import Testing

/// Lesson 3's `UIActor` variants explored by the built `racelab`, the way a user runs them, with
/// marks on and off. Not in the lesson's own test target: `UIActor` is one actor for the whole
/// process, and other tests there (the runner's) run on it at the same time, outside any
/// exploration, where a job of theirs would run the explorer's next job unseen, or hold the actor
/// while the explorer waits for its job. The tool runs nothing beside an exploration.
@Suite("Lesson 3's UIActor variants under the schedule explorer")
struct UIActorCommandLineTests {
    /// One variant's entry of `racelab explore 3 --json`.
    static func explore(_ variant: String, _ options: String...) async throws -> [String: Any] {
        let output = try await Executable.racelab.run(["explore", "3", "--variant", variant, "--json"] + options)
        #expect(output.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        )
        let variants = try #require(document["variants"] as? [[String: Any]])
        return try #require(variants.first)
    }

    /// `racelab explore 3 --marks off --variant VARIANT`'s text output; it must exit 0.
    static func exploreWithMarksOff(_ variant: String) async throws -> Executable.Output {
        let output = try await Executable.racelab.run("explore", "3", "--marks", "off", "--variant", variant)
        #expect(output.status == 0)
        return output
    }

    /// Runs `racelab explore 3 --variant main-actor-update --replay SCHEDULE` 100 times; each must
    /// reproduce.
    static func expectReplays(_ replay: String, _ options: String...) async throws {
        var reproduced = 0
        for _ in 0..<100 {
            let again = try await Executable.racelab.run(
                ["explore", "3", "--variant", "main-actor-update", "--replay", replay] + options
            )
            if again.status == 0 && again.stdout.contains("verdict: REPRODUCED") { reproduced += 1 }
        }
        #expect(reproduced == 100)
    }

    @Test("main-actor-update: both calls read before either writes back; the failure replays 100 of 100 times")
    func mainActorUpdateLosesAnUpdate() async throws {
        let variant = try await Self.explore("main-actor-update")
        #expect(variant["exhaustive"] as? Bool == true)
        #expect((variant["failingSchedules"] as? Int ?? 0) > 0)
        let failure = try #require(variant["failure"] as? [String: Any])
        #expect(failure["message"] as? String == "invariant broken: item 0 has updates [1]; lost [2]")
        let steps = try #require(failure["steps"] as? [[String: Any]])
        let operations = steps.compactMap { $0["operation"] as? String }
        #expect(operations.suffix(2) == ["write back the list it read", "write back the list it read"])
        // The write-back that drops the other call's update says so, at the last step.
        let seen = try #require(failure["failureSeen"] as? [String: Any], "\(failure)")
        let what = "the component's updateItem stored item 0 without update 2, which another call stored"
        #expect(seen["what"] as? String == what)
        #expect(seen["step"] as? Int == steps.count)
        try await Self.expectReplays(try #require(failure["replay"] as? String))
    }

    @Test("main-actor-update with a refresh: the whole-list write-backs bring the cleared list back")
    func mainActorUpdateResurrectsTheList() async throws {
        let variant = try await Self.explore("main-actor-update", "--threads", "3")
        #expect(variant["exhaustive"] as? Bool == true)
        let failure = try #require(variant["failure"] as? [String: Any])
        #expect(
            failure["message"] as? String
                == "invariant broken: items [0, 1, 2, 3], which clear() removed, are back; items [4, 5, 6, 7] are gone"
        )
    }

    @Test("main-actor-one-job: no schedule within 2 preemptions fails, with 2 or 3 tasks", arguments: ["2", "3"])
    func mainActorOneJobIsClean(threads: String) async throws {
        let variant = try await Self.explore("main-actor-one-job", "--threads", threads)
        #expect(variant["exhaustive"] as? Bool == true)
        #expect((variant["schedules"] as? Int ?? 0) > 1)
        #expect(variant["failingSchedules"] as? Int == 0)
        #expect(variant["inconclusive"] as? Bool == false)
    }

    @Test("main-actor-update with marks off: a failing schedule made of jobs alone, which replays 100 of 100 times")
    func mainActorUpdateIsFoundWithMarksOff() async throws {
        let output = try await Self.exploreWithMarksOff("main-actor-update")
        #expect(output.stdout.contains(" schedules ran (all with at most 2 preemptions), "))
        #expect(output.stdout.contains("invariant broken: item 0 has updates "))
        #expect(output.stdout.contains("verdict: FOUND"))
        // No mark is a point: the lesson's marks (`call updateItem`, `write back the list it read`) never appear.
        #expect(!output.stdout.contains("call updateItem") && !output.stdout.contains("write back the list it read"))
        let replayLine = try #require(output.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        try await Self.expectReplays(replay, "--marks", "off")
    }

    @Test("main-actor-one-job with marks off: every schedule within the bound explored, none failing")
    func mainActorOneJobIsCleanWithMarksOff() async throws {
        let output = try await Self.exploreWithMarksOff("main-actor-one-job")
        #expect(
            output.stdout.contains(
                "verdict: CLEAN (every schedule of 2 tasks and the work they start, with at most 2 preemptions)"
            )
        )
        #expect(output.stdout.contains(" schedules ran, 0 failed, in "))
    }
}

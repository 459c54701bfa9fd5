import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// `racelab explore`: its options, and its exit status on lessons whose schedules are known.
@Suite("The explore command")
struct ExploreCommandTests {
    /// A lesson with a lost update (buggy), a locked increment (fixed) and a lock-order deadlock
    /// (buggy), each explorable; the stress operations are never run here.
    static let lesson = Synthetic.lesson(
        1,
        "explorable",
        [
            Synthetic.clean.exploring(Explorations.lockedIncrement),
            Synthetic.dropping(every: 2).exploring(Explorations.lostUpdate),
            Variant(
                name: "lock-order",
                kind: .buggy,
                summary: "two locks in opposite orders",
                makeState: { 0 },
                operation: { _, _ in },
                check: { _, _ in .kept(1, of: 1) }
            )
            .exploring(Explorations.lockOrder),
        ]
    )
    let parser = ArgumentParser(lessons: [Self.lesson])

    @Test("each strategy takes the options it uses")
    func strategyOptions() throws {
        for arguments in [
            ["explore", "1", "--strategy", "dfs", "--reduction", "dpor", "--preemptions", "3"],
            ["explore", "1", "--strategy", "pct", "--seed", "1", "--preemptions", "3"],
            ["explore", "1", "--strategy", "random", "--seed", "1", "--schedules", "10"],
        ] {
            #expect(throws: Never.self) { try parser.parse(arguments) }
        }
    }

    @Test("options are read into a request")
    func parsesOptions() throws {
        var expected = ExploreRequest(lesson: 1)
        expected.variant = "lock-order"
        expected.options.strategy = .pct
        expected.options.threads = 3
        expected.options.preemptions = 1
        expected.options.schedules = 50
        expected.options.seed = 255
        expected.json = true
        let parsed = try parser.parse([
            "explore", "explorable", "--variant", "lock-order", "--strategy=pct", "--threads", "3",
            "--preemptions", "1", "--schedules", "50", "--seed", "0xff", "--json",
        ])
        #expect(parsed == .request(expected))
        #expect(try parser.parse(["explore", "--help"]) == .help(ExploreRequest.descriptor))
    }

    @Test("'all' explores every lesson that has an explorable variant; --stall sets the stall limit")
    func parsesAllAndStall() throws {
        var expected = ExploreRequest(lessons: [1])
        expected.all = true
        expected.options.stallTimeout = 0.5
        #expect(try parser.parse(["explore", "all", "--stall", "0.5"]) == .request(expected))
        #expect(expected.options.stallTimeout == 0.5)
        #expect(ExploreRequest(lesson: 1).options.stallTimeout == ExplorationOptions().stallTimeout)
    }

    @Test(
        "bad explore input is refused with one line",
        arguments: [
            (["explore"], "which lesson? give a number, a slug or 'all'"),
            (["explore", "all", "--variant", "clean"], "--variant needs a single lesson, not 'all'"),
            (["explore", "all", "--replay", "2:0.1@0a1b2c"], "--replay needs a single lesson, not 'all'"),
            (["explore", "all", "--trace", "trace.json"], "--trace needs a single lesson, not 'all'"),
            (
                ["explore", "1", "--stall", "0"],
                "--stall must be a number of seconds from 0.1 to 604800 (7 days), got '0'"
            ),
            (
                ["explore", "1", "--stall", "ten"],
                "--stall must be a number of seconds from 0.1 to 604800 (7 days), got 'ten'"
            ),
            (["explore", "1", "--strategy", "bfs"], "--strategy must be dfs, pct or random, got 'bfs'"),
            (["explore", "1", "--threads", "0"], "--threads must be an integer from 1 to 16, got '0'"),
            (
                ["explore", "1", "--replay", "2:0.x@0a1b2c"],
                "--replay '2:0.x@0a1b2c': not a replay string like '2:0.1.0.1@3fa9c1', as a report prints it: "
                    + "a choice is not a thread number"
            ),
            (
                ["explore", "1", "--replay", "2:0.1"],
                "--replay '2:0.1': the replay string names no program (it ends without '@' and a fingerprint): "
                    + "it was written by hand, cut short, or made by an older RaceLab; explore again for a current one"
            ),
            (
                ["explore", "1", "--replay", "2:0.1@0a1b2c"],
                "--replay needs --variant (one of: clean, drops-every-2, lock-order)"
            ),
            (
                ["explore", "1", "--strategy", "pct", "--reduction", "dpor"],
                "--reduction is for the dfs strategy; --strategy pct would ignore it"
            ),
            (
                ["explore", "all", "--reduction", "states", "--strategy", "random"],
                "--reduction is for the dfs strategy; --strategy random would ignore it"
            ),
            (
                ["explore", "1", "--seed", "7"],
                "--seed is for the pct and random strategies; --strategy dfs would ignore it"
            ),
            (
                ["explore", "1", "--strategy", "random", "--preemptions", "1"],
                "--preemptions is for the dfs and pct strategies; --strategy random would ignore it"
            ),
        ]
    )
    func refusesBadInput(arguments: [String], message: String) {
        let error = parser.refusal(arguments)
        #expect(error?.message == message)
        #expect(error?.command == ExploreRequest.descriptor)
    }
}

import RaceLab
import Testing

@testable import RaceLabCommandLine

@Suite("A mistyped command, option or variant gets one 'did you mean'")
struct SuggestionTests {
    let parser = ArgumentParser(lessons: [
        Synthetic.lesson(
            1,
            "synthetic",
            [Synthetic.variant("buggy", .buggy), Synthetic.dropping(every: 2), Synthetic.clean]
        )
    ])

    @Test(
        "each typo names the one word it most likely meant, in the usage error's one line",
        arguments: [
            (["rn", "1"], "unknown command 'rn'; did you mean 'run'?"),
            (["Run", "1"], "unknown command 'Run'; did you mean 'run'?"),
            (["exlpore", "1"], "unknown command 'exlpore'; did you mean 'explore'?"),
            (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
            (
                ["help", "rnu"],
                "no help for 'rnu'; commands are: list, run, power, matrix, explore, merge, play, help; did you mean 'run'?"
            ),
            (["run", "1", "--trails", "5"], "unknown option '--trails' for 'run'; did you mean '--trials'?"),
            (["run", "1", "--trails=5"], "unknown option '--trails' for 'run'; did you mean '--trials'?"),
            (["power", "1", "--jsno"], "unknown option '--jsno' for 'power'; did you mean '--json'?"),
            (
                ["explore", "1", "--strategie", "dfs"],
                "unknown option '--strategie' for 'explore'; did you mean '--strategy'?"
            ),
            (
                ["run", "1", "--variant", "bugy"],
                "lesson 1 has no variant 'bugy'; did you mean 'buggy'?\n  its variants are: buggy, drops-every-2, clean"
            ),
            (
                ["run", "1", "--variant", "Buggy"],
                "lesson 1 has no variant 'Buggy'; did you mean 'buggy'?\n  its variants are: buggy, drops-every-2, clean"
            ),
            (["run", "synthetc"], "unknown lesson 'synthetc'; lessons are: 1 (synthetic); did you mean 'synthetic'?"),
        ]
    )
    func typos(arguments: [String], message: String) {
        #expect(parser.refusal(arguments)?.message == message)
    }

    @Test("a lesson's many variants follow the error's one line, wrapped to the report width")
    func manyVariants() throws {
        let names = (1...14).map { "variant-with-a-long-name-\($0)" }
        let parser = ArgumentParser(lessons: [
            Synthetic.lesson(1, "synthetic", names.map { Synthetic.variant($0, .buggy) })
        ])
        let lines = try #require(parser.refusal(["run", "1", "--variant", "nope"])).message.split(separator: "\n")
        #expect(lines.first == "lesson 1 has no variant 'nope'")
        #expect(lines.count > 3)
        #expect(lines.allSatisfy { $0.count <= reportWidth })
        #expect(lines[1].hasPrefix("  its variants are: variant-with-a-long-name-1, "))
        let listed = lines.dropFirst().joined(separator: " ").dropFirst("  its variants are: ".count)
        #expect(
            listed.split(separator: " ").filter { !$0.isEmpty }.joined(separator: " ") == names.joined(separator: ", ")
        )
    }

    @Test(
        "a word near no name gets no guess",
        arguments: [["fetch"], ["run", "1", "--bogus"], ["run", "1", "--variant", "nope"], ["run", "nope"], ["r"]]
    )
    func noGuess(arguments: [String]) {
        #expect(parser.refusal(arguments)?.message.contains("did you mean") == false)
    }

    @Test("the nearest name wins: same letters in another case first, then the fewest edits, at most two")
    func nearest() {
        #expect(Suggestion.nearest(to: "CLEAN", among: ["clear", "clean"]) == "clean")
        #expect(Suggestion.nearest(to: "--trails", among: ["--trials", "--tails"]) == "--trials")
        #expect(Suggestion.nearest(to: "lst", among: ["list", "last"]) == "list")
        #expect(Suggestion.nearest(to: "abcdef", among: ["abcxyz"]) == nil)
        // A word of one or two letters is corrected by at most one edit: `r` is not a guess at `run`.
        #expect(Suggestion.nearest(to: "r", among: ["run"]) == nil)
        #expect(Suggestion.nearest(to: "rn", among: ["run"]) == "run")
        #expect(Suggestion.editDistance("--trails", "--trials") == 1)
        #expect(Suggestion.editDistance("bugy", "buggy") == 1)
        #expect(Suggestion.editDistance("", "run") == 3)
    }
}

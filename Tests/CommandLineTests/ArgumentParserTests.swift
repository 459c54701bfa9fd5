import RaceLab
import Testing

@testable import RaceLabCommandLine

@Suite("The command line is checked before anything runs")
struct ArgumentParserTests {
    let parser = ArgumentParser(lessons: [
        Synthetic.lesson(1, "synthetic", [Synthetic.clean, Synthetic.dropping(every: 2)])
    ])

    @Test("a lesson is named by number or by slug")
    func lessonIdentifiers() throws {
        #expect(try parser.parse(["run", "1"]) == .request(RunRequest(selection: StressSelection(lessons: [1]))))
        #expect(
            try parser.parse(["run", "synthetic"]) == .request(RunRequest(selection: StressSelection(lessons: [1])))
        )
        #expect(try parser.parse(["run", "all"]) == .request(RunRequest(selection: StressSelection(lessons: [1]))))
    }

    @Test("options take values with a space or an equals sign")
    func optionForms() throws {
        let expected = RunRequest(
            selection: StressSelection(
                lessons: [1],
                variant: "clean",
                trials: 5,
                iterations: 9,
                seed: 255,
                timeout: 2.5
            ),
            noise: false,
            json: true
        )
        #expect(
            try parser.parse([
                "run", "1", "--variant", "clean", "--trials", "5", "--iterations=9", "--seed", "0xff",
                "--noise", "off", "--timeout", "2.5", "--json",
            ]) == .request(expected)
        )
    }

    @Test(
        "bad input is refused with one line that says why",
        arguments: [
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["--frobnicate"], "unknown option '--frobnicate'"),
            (["run"], "which lesson? give a number, a slug or 'all'"),
            (["run", "9"], "unknown lesson '9'; lessons are: 1 (synthetic)"),
            (["run", "nope"], "unknown lesson 'nope'; lessons are: 1 (synthetic)"),
            (
                ["run", "1", "--variant", "nope"],
                "lesson 1 has no variant 'nope'\n  its variants are: clean, drops-every-2"
            ),
            (["run", "all", "--variant", "clean"], "--variant 'clean' needs a single lesson, not 'all'"),
            (["run", "1", "--trials", "0"], "--trials must be a positive integer, got '0'"),
            (["run", "1", "--trials", "-3"], "--trials must be a positive integer, got '-3'"),
            (["run", "1", "--iterations", "ten"], "--iterations must be a positive integer, got 'ten'"),
            (["run", "1", "--iterations", "99999999999"], "--iterations must be at most 10000000, got 99999999999"),
            (["run", "1", "--trials"], "option --trials needs a value"),
            (["run", "1", "--seed", "-1"], "--seed must be a non-negative integer (decimal or 0x hex), got '-1'"),
            (["run", "1", "--noise", "maybe"], "--noise must be 'on' or 'off', got 'maybe'"),
            (
                ["run", "1", "--timeout", "0"],
                "--timeout must be a number of seconds from 0.1 to 604800 (7 days), got '0'"
            ),
            (["run", "1", "--bogus"], "unknown option '--bogus' for 'run'"),
            (["run", "1", "--json=yes"], "option --json takes no value"),
            (["run", "1", "2"], "one lesson at a time (got '1' and '2'); use 'all' for every lesson"),
            (["power", "1", "--trials", "0"], "--trials must be a positive integer, got '0'"),
            (["list", "extra"], "unexpected argument 'extra' for 'list'"),
            (
                ["help", "nope"],
                "no help for 'nope'; commands are: list, run, power, matrix, explore, merge, play, help"
            ),
        ]
    )
    func badInput(arguments: [String], message: String) {
        #expect(parser.refusal(arguments)?.message == message)
    }

    @Test(
        "every command reads a shared option alike, and its error shows that command's usage",
        arguments: [
            RunRequest.descriptor, PowerRequest.descriptor, MatrixRequest.descriptor, ExploreRequest.descriptor,
        ]
    )
    func sharedOptions(command: CommandDescriptor) {
        let cases: [([String], String)] = [
            (["--seed", "-1"], "--seed must be a non-negative integer (decimal or 0x hex), got '-1'"),
            (["--seed"], "option --seed needs a value"),
            (["--seed", "--json"], "option --seed needs a value"),
            (["--json=yes"], "option --json takes no value"),
            (["--frobnicate"], "unknown option '--frobnicate' for '\(command.name)'"),
        ]
        for (options, message) in cases {
            let error = parser.refusal([command.name, "1"] + options)
            #expect(error?.message == message)
            #expect(error?.command == command)
        }
    }

    @Test("list refuses a value for --json as every command does")
    func listJSONValue() {
        #expect(throws: UsageError("option --json takes no value", command: ListRequest.descriptor)) {
            try parser.parse(["list", "--json=1"])
        }
    }
}

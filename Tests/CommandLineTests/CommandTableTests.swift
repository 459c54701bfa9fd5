import RaceLab
import Testing

@testable import RaceLabCommandLine

/// The command table, from which dispatch, usage, help and suggestions are derived.
@Suite("One descriptor per command")
struct CommandTableTests {
    @Test("names are unique; within a command, so are option names, and none is --help")
    func uniqueNames() {
        let names = CommandDescriptor.all.map(\.name)
        #expect(Set(names).count == names.count)
        for command in CommandDescriptor.all {
            let options = command.options.map(\.flag)
            #expect(Set(options).count == options.count, "\(command.name)")
            #expect(!options.contains("--help"), "\(command.name)")
        }
    }

    @Test("hidden commands are dispatched, but help, usage and 'did you mean' leave them out")
    func hiddenCommands() {
        let hidden = CommandDescriptor.all.filter(\.isHidden).map(\.name)
        #expect(hidden == [ChildRequest.command, WorkerRequest.command])
        let help = HelpText(tool: "racelab")
        for name in hidden {
            #expect(!help.overview().contains(name))
            #expect(!help.usage(nil).contains(name))
        }
        let parser = ArgumentParser(lessons: [])
        #expect(parser.refusal(["_chil"])?.message == "unknown command '_chil'")
        #expect(parser.refusal(["help", "_child"])?.message.hasPrefix("no help for '_child'") == true)
    }

    @Test("a choice's usage lists every case of its type, and its help describes each")
    func choicesFromCaseIterable() {
        let usage = HelpText(tool: "racelab").usage(ExploreRequest.descriptor)
        let strategies = ExplorationOptions.Strategy.allCases.map(\.rawValue)
        let reductions = ExplorationOptions.Reduction.allCases.map(\.rawValue)
        #expect(usage.contains("[--strategy \(strategies.joined(separator: "|"))]"))
        #expect(usage.contains("[--reduction \(reductions.joined(separator: "|"))]"))
        let options = ExploreRequest.descriptor.options
        for (flag, choices) in [("--strategy", strategies), ("--reduction", reductions)] {
            let help = options.first { $0.flag == flag }?.lines.joined(separator: " ") ?? ""
            for choice in choices { #expect(help.contains("\(choice)"), "\(flag) \(choice)") }
        }
    }

    @Test("help prints the default the command's request holds, not a copy of it")
    func defaultsFromRequests() throws {
        var run = RunRequest()
        run.selection.timeout = 7
        run.noise = false
        #expect(
            CommandOption<RunRequest>.timeout(\.selection.timeout).help(run)?.lines.joined().contains("(default: 7)")
                == true
        )
        #expect(CommandOption<RunRequest>.noise(\.noise).help(run)?.lines.joined().contains("(default: off)") == true)
        // explore's defaults are the explorer's own.
        #expect(ExploreRequest().options == ExplorationOptions())
        let stall = try #require(ExploreRequest.descriptor.options.first { $0.flag == "--stall" })
        #expect(stall.lines.joined().contains("(default: \(formatSeconds(ExplorationOptions().stallTimeout))"))
        let preemptions = try #require(ExploreRequest.descriptor.options.first { $0.flag == "--preemptions" })
        #expect(preemptions.lines.joined().contains("Default \(ExplorationOptions().preemptions)."))
    }

    @Test("a command's options are read into its request, one option at a time")
    func optionsFillRequests() throws {
        let parser = ArgumentParser(lessons: [ExploreCommandTests.lesson])
        var expected = ExploreRequest(lesson: 1)
        expected.options.reduction = .states
        expected.options.stepBound = 50
        expected.options.stallTimeout = 2
        expected.options.marks = false
        #expect(
            try parser.parse(["explore", "1", "--reduction", "states", "--steps=50", "--stall", "2", "--marks", "off"])
                == .request(expected)
        )
        #expect(try parser.parse(["list", "--json"]) == .request(ListRequest(json: true)))
        #expect(
            try parser.parse(["play", "1", "--threads", "3"])
                == .request(PlayRequest(lesson: 1, variant: "drops-every-2", threads: 3))
        )
        var power = PowerRequest(selection: StressSelection(lessons: [1]))
        power.selection.trials = 4
        #expect(try parser.parse(["power", "1", "--trials", "4"]) == .request(power))
        #expect(
            try parser.parse(["power", "1", "--trials", "4"])
                != .request(RunRequest(selection: StressSelection(lessons: [1], trials: 4)))
        )
    }
}

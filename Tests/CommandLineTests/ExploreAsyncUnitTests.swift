import Foundation
import Testing

/// An async exploration's text names its units tasks, in every line that counts or defines them,
/// a replay of it included; a Dispatch lesson's stays with threads.
@Suite("racelab explore names an async lesson's units tasks")
struct ExploreAsyncUnitTests {
    @Test("lesson 3: the preemption's definition, the counts, the scope and a replay say tasks")
    func lessonThreeSaysTasks() async throws {
        let output = try await Executable.racelab.run("explore", "3")
        #expect(output.status == 0)
        let text = output.unwrappedStdout
        #expect(text.contains("a preemption: the explorer switches away from a task that could go on"))
        #expect(text.contains("verdict: CLEAN (every schedule of 2 tasks and the work they start, with at most 2"))
        #expect(!text.contains("thread that could go on"))
        #expect(!text.contains("2 threads and the work"))
        let verbose = try await Executable.racelab.run("explore", "3", "--variant", "await-first", "--verbose")
        #expect(verbose.stdout.contains("strategy dfs, 2 tasks, at most 2 preemptions"))
        // The JSON's scope stays the precise form it has always been.
        let json = try await Executable.racelab.run("explore", "3", "--variant", "await-first", "--json")
        #expect(json.stdout.contains("every schedule of 2 threads with at most 2 preemptions"))
        let replayLine = try #require(output.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        let again = try await Executable.racelab.run("explore", "3", "--variant", "buggy-update", "--replay", replay)
        #expect(again.status == 0)
        #expect(again.stdout.contains("replayed 1 schedule on 2 tasks"))
        #expect(again.stdout.contains("step  task 0"))
        #expect(!again.stdout.contains("thread 0"))
    }

    @Test("lesson 1: the actor variant's summary says tasks")
    func lessonOneActorSaysTasks() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "actor")
        #expect(
            output.unwrappedStdout.contains("each task awaits one store on the actor; invariant: every key is present")
        )
        #expect(!output.unwrappedStdout.contains("each thread awaits"))
    }

    @Test("lesson 6: the actor variant's roles are tasks, the Dispatch variants' threads")
    func lessonSixUnits() async throws {
        let actor = try await Executable.racelab.run("explore", "6", "--variant", "actor-state")
        #expect(actor.unwrappedStdout.contains("task 1 reads the actor's state twice and renders it; task 0 publishes"))
        let dispatch = try await Executable.racelab.run("explore", "6", "--variant", "state-object")
        #expect(dispatch.unwrappedStdout.contains("thread 1 renders the UI once; thread 0 publishes"))
        #expect(dispatch.stdout.contains("switches away from a thread that could go on"))
    }
}

/// A usage line after a usage error wraps at 100 columns, its continuation under the arguments.
@Suite("racelab's usage lines wrap")
struct UsageWrapTests {
    @Test(
        "every command's usage, and the tool's, within 100 columns",
        arguments: [
            ["explore", "--bogus"], ["run", "--trials", "x"], ["play", "--bogus"], ["matrix", "--bogus"],
            ["power", "--bogus"], ["merge", "--bogus"], ["list", "--bogus"], ["--bogus"],
        ]
    )
    func wrapped(arguments: [String]) async throws {
        let output = try await Executable.racelab.run(arguments)
        #expect(output.status == 2)
        let lines = output.stderr.split(separator: "\n")
        let usage = try #require(lines.firstIndex { $0.hasPrefix("usage: racelab") })
        #expect(lines.allSatisfy { $0.count <= 100 }, "got: \(output.stderr)")
        // Continuation lines start where the first line's arguments do.
        let words = arguments.first == "--bogus" ? 2 : 3
        let head = lines[usage].split(separator: " ").prefix(words).joined(separator: " ").count + 1
        for line in lines[(usage + 1)...] {
            #expect(line.prefix(head).allSatisfy { $0 == " " } && line.dropFirst(head).first != " ", "got: \(line)")
        }
    }

    @Test("explore's usage takes more than one line")
    func exploreWraps() async throws {
        let output = try await Executable.racelab.run("explore", "--bogus")
        #expect(output.stderr.split(separator: "\n").count > 2)
    }
}

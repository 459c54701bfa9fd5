import Foundation
import Testing

/// `explore` runs each variant in a process of its own: what the code under test does to its
/// process (exit, trap, print) is that variant's outcome, never the tool's, and never a verdict on
/// the bug. The `exploring` fixture lesson holds one variant per case.
@Suite("explore isolates each variant in a child process")
struct IsolatedExploreTests {
    /// The JSON document of `racelab-fixtures explore exploring --variant <variant> --json`.
    func explore(_ variant: String) async throws -> (output: Executable.Output, entry: [String: Any]) {
        let output = try await Executable.fixtures.run(["explore", "exploring", "--variant", variant, "--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "stdout is not one JSON document: \(output.stdout)"
        )
        // One lesson's document: the lesson's fields at the top, as every document names a lesson.
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["number"] is Int && document["title"] is String && document["lesson"] == nil)
        let entry = try #require((document["variants"] as? [[String: Any]])?.first)
        return (output, entry)
    }

    @Test("a thread that calls exit(0) is CRASHED with exit status 1, not FOUND with 0")
    func threadThatExits() async throws {
        let (output, entry) = try await explore("exits")
        #expect(output.status == 1)
        #expect(entry["verdict"] as? String == "crashed")
        #expect(entry["exitStatus"] as? Int == 0)
        #expect(entry["asExpected"] as? Bool == false)
        #expect(entry["failure"] == nil)
        let text = try await Executable.fixtures.run("explore", "exploring", "--variant", "exits")
        #expect(text.status == 1)
        #expect(text.stdout.contains("the process exited with status 0 without a report, during the exploration"))
        #expect(text.stdout.contains("verdict: CRASHED"))
        #expect(!text.stdout.contains("FOUND"))
    }

    @Test("an invariant that traps is CRASHED with its signal and message; the tool itself does not die")
    func invariantThatTraps() async throws {
        let (output, entry) = try await explore("traps-in-invariant")
        #expect(output.status == 1)
        #expect(entry["verdict"] as? String == "crashed")
        #expect(entry["signal"] as? Int != nil)
        let tail = try #require(entry["stderrTail"] as? [String])
        #expect(tail.contains { $0.contains("Fatal error: fixture invariant trap") })
    }

    @Test("what the code under test prints, without a newline and looking like JSON, reaches no report")
    func codeThatPrints() async throws {
        let (output, entry) = try await explore("prints")
        #expect(output.status == 0)
        #expect(entry["asExpected"] as? Bool == true)
        #expect(entry["exhaustive"] as? Bool == true)
        let text = try await Executable.fixtures.run("explore", "exploring", "--variant", "prints")
        #expect(text.status == 0)
        #expect(text.stdout.contains("verdict: CLEAN"))
        #expect(!text.stdout.contains("the invariant prints too"))
        #expect(!text.stdout.contains("FOUND"))
        #expect(!text.stderr.contains("written by the code under test"))
    }

    @Test("a lost update is FOUND and replays; a serial schedule does not reproduce it: exit 1")
    func verdictsThroughTheChild() async throws {
        let (found, entry) = try await explore("lost-update")
        #expect(found.status == 0)
        #expect(try await explore("locked").output.status == 0)
        // The failing schedule's string carries the variant's fingerprint; a serial schedule of the
        // same program is written with the same one.
        let failing = try #require((entry["failure"] as? [String: Any])?["replay"] as? String)
        let program = try #require(failing.split(separator: "@").last)
        let replay = try await Executable.fixtures.run(
            "explore",
            "exploring",
            "--variant",
            "lost-update",
            "--replay",
            failing
        )
        #expect(replay.status == 0)
        #expect(replay.stdout.contains("verdict: REPRODUCED"))
        let serial = try await Executable.fixtures.run(
            "explore",
            "exploring",
            "--variant",
            "lost-update",
            "--replay",
            "2:0.0.1.1@\(program)"
        )
        #expect(serial.status == 1)
        #expect(serial.stdout.contains("verdict: NOT REPRODUCED"))
    }

    @Test("an exploration whose setup fails exits 3 (an error), not 1")
    func setupFailure() async throws {
        let output = try await Executable.fixtures.run("explore", "exploring", "--variant", "setup-fails")
        #expect(output.status == 3)
        #expect(output.stderr.contains("error: variant setup-fails could not be set up"))
        #expect(output.stdout.isEmpty)
    }

    @Test("--html and --trace draw the failing schedule the child found, with its states")
    func picturesFromTheChild() async throws {
        try await Executable.withTemporaryFolder("racelab-pictures") { folder in
            let page = folder.appendingPathComponent("page.html").path
            let trace = folder.appendingPathComponent("trace.json").path
            let output = try await Executable.racelab.run([
                "explore", "1", "--variant", "buggy", "--html", page, "--trace", trace,
            ])
            #expect(output.status == 0)
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("invariant broken: kept 1 of 2 keys"))
            // The states come from the child's replay of the failing schedule.
            #expect(html.contains("state after the step"))
            #expect(html.contains("store holds []"))
            // Each thread's copy, from its read to its write, one line each: the stale copy is the bug.
            #expect(html.contains("store holds []<br>thread 0 read [] → will write [item-0]"))
            #expect(html.contains("store holds [item-1]<br>thread 0 read [] → will write [item-0]"))
            let events = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace)))
            #expect(events is [String: Any] || events is [Any])
        }
    }

    @Test("the text shows the state along the failing schedule where it changes: each thread's copy")
    func statesInTheText() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "buggy")
        #expect(output.status == 0)
        // The schedule is dfs's first failing one: both stores read the empty store, then both write.
        let expected = """
                state at the start and after each step that changes it:
                  start   store holds []
                  step 1  store holds []
                          thread 0 read [] → will write [item-0]
                  step 2  store holds []
                          thread 0 read [] → will write [item-0]
                          thread 1 read [] → will write [item-1]
                  step 5  store holds [item-1]
                          thread 0 read [] → will write [item-0]
                  step 6  store holds [item-0]
            """
        #expect(output.stdout.contains(expected + "\n\n  replay: "), "\(output.stdout)")
        // A variant without a failing schedule has no state to show.
        let fixed = try await Executable.racelab.run("explore", "1", "--variant", "fixed")
        #expect(!fixed.stdout.contains("state at the start"))
    }

    @Test("an async exploration whose jobs are steps shows no state: describing it would wait for a paused job")
    func noStatesWhenJobsAreSteps() async throws {
        // Lesson 3 reads its state on the actor. With marks, no thread pauses on it; with marks off,
        // each job is a step, and a job paused on the actor would hold the read back for ever.
        let marked = try await Executable.racelab.run("explore", "3", "--variant", "buggy-update")
        #expect(marked.status == 0)
        #expect(marked.stdout.contains("      start   item 0 has updates []; calls reported applied []\n"))
        let unmarked = try await Executable.racelab.run("explore", "3", "--variant", "buggy-update", "--marks", "off")
        #expect(unmarked.status == 0)
        #expect(unmarked.stdout.contains("verdict: FOUND"))
        #expect(!unmarked.stdout.contains("state at the start"))
    }

    @Test("SIGTERM during an exploration kills its child and what the child started, and exits 143")
    func terminated() async throws {
        // The thread hangs for good once the mark exists.
        try await Executable.runFixtureHanging(
            ["explore", "exploring", "--variant", "hangs", "--stall", "600"],
            folder: "racelab-explore-term",
            interruptedBy: SIGTERM
        ) { output, mark, _ in
            #expect(FileManager.default.fileExists(atPath: mark), "the hanging thread never started")
            #expect(output.reason == .exit)
            #expect(output.status == 143)
            #if os(Linux)
            let helper = try #require(pid_t(try String(contentsOfFile: mark, encoding: .utf8)))
            #expect(!ChildProtocolTests.isRunning(helper), "the helper \(helper) outlived the exploration")
            #endif
        }
    }
}

import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// `racelab play` end to end: the built binary, driven over stdin, its transcript checked.
@Suite("racelab play: the participant is the scheduler")
struct PlayCommandLineTests {
    /// Plays lesson `lesson` with `input` on stdin.
    static func play(_ arguments: [String], input: String) async throws -> Executable.Output {
        try await Executable.racelab.run(["play"] + arguments, input: input)
    }

    /// The replay string of the last `replay:` line of `text`.
    static func replayString(_ text: String) throws -> String {
        let line = try #require(text.split(separator: "\n").last { $0.contains("replay: ") })
        return try #require(line.split(separator: " ").last.map(String.init))
    }

    @Test("lesson 1: the six steps explore prints break the invariant, and play prints the same replay string")
    func lessonOneScheduleBreaksIt() async throws {
        let explored = try await Executable.racelab.run("explore", "1", "--variant", "buggy")
        let replay = try Self.replayString(explored.joinedStdout)
        let decisions = try #require(replay.split(separator: "@").first)
        let choices = try #require(decisions.split(separator: ":").last).split(separator: ".")
        #expect(choices.count == 6)
        let output = try await Self.play(["1"], input: choices.joined(separator: "\n") + "\nq\n")
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        #expect(output.stdout.contains("The invariant broke: kept 1 of 2 keys (6 steps)."))
        #expect(
            output.joinedStdout.contains(
                "replay: \(Executable.racelab.path) explore 1 --variant buggy --replay \(replay)"
            )
        )
        // The shared state is shown between steps: after both gets, both sets and the first
        // barrier item, one key is stored.
        #expect(output.stdout.contains("step 6   state: store holds [item-"))
        // Each thread's copy, on a line of its own under the state.
        #expect(output.stdout.contains("\n                thread 1 read [] → will write [item-1]\n"))
        // Piped, the transcript has no colour codes.
        #expect(!output.stdout.contains("\u{1B}["))
    }

    @Test("a schedule that keeps the invariant: the buggy variant's end says the explorer finds failing ones")
    func passingPlayOfBuggyVariant() async throws {
        // Thread 0's store, its barrier item (thread 2), then thread 1's store and its barrier item.
        let output = try await Self.play(["1"], input: "0\n0\n2\n1\n1\n3\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("The invariant held after 6 steps."))
        #expect(
            output.joinedStdout.contains(
                "replay: \(Executable.racelab.path) explore 1 --variant buggy --replay 2:0.0.2.1.1.3"
            )
        )
        #expect(
            output.unwrappedStdout.contains(
                "The explorer finds 8 failing among 10 schedules of 2 threads and the work they start, with at most "
                    + "2 preemptions: r to try again, h for a hint on the way."
            )
        )
    }

    @Test("the fixed store: after a play, the explorer's count of schedules that do not break it")
    func fixedVariantEnd() async throws {
        let output = try await Self.play(["1", "--variant", "fixed"], input: "1\n0\n2\n3\nq\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("The invariant held after 4 steps."))
        #expect(
            output.unwrappedStdout.contains(
                "No schedule breaks it: the explorer checked all 4 schedules of 2 threads and the work they "
                    + "start, with at most 2 preemptions."
            )
        )
    }

    @Test("undo takes back the last step: the game shows step 1 again and the replay string leaves the step out")
    func undo() async throws {
        let output = try await Self.play(["1"], input: "u\n0\nu\n1\n0\n1\n0\n2\n3\nq\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("> u\nNothing to undo: no step has run yet.\n"))
        let stepOnes = output.stdout.components(separatedBy: "\nstep 1   ").count - 1
        #expect(stepOnes == 2)
        #expect(
            output.joinedStdout.contains(
                "replay: \(Executable.racelab.path) explore 1 --variant buggy --replay 2:1.0.1.0.2.3"
            )
        )
        #expect(output.stdout.contains("The invariant broke: kept 1 of 2 keys"))
    }

    @Test("following every hint breaks the invariant; where nothing can, the hint says so")
    func hints() async throws {
        let output = try await Self.play(["1"], input: "h\n0\nh\n1\nh\n1\nh\n0\nh\n2\nh\n3\nq\n")
        // Each hint: the move, then on the next line where it leads (its wrapped lines joined to it).
        let lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let hints = lines.indices.filter { lines[$0].hasPrefix("hint: ") }.map { index in
            let continued = lines[min(index + 2, lines.endIndex)...].prefix { $0.hasPrefix("    ") }
            return
                ([lines[index] + "\n" + (lines.indices.contains(index + 1) ? lines[index + 1] : "")]
                + continued.map { $0.drop { $0 == " " } }).joined(separator: " ")
        }
        #expect(
            hints == [
                "hint: run thread 0 (sync storage)\n  a shortest failing schedule takes 6 more steps; the explorer checked all 10 schedules "
                    + "that continue from here",
                "hint: run thread 1 (sync storage)\n  a shortest failing schedule takes 5 more steps; the explorer checked all 5 schedules "
                    + "that continue from here",
                "hint: run thread 1 (set contents)\n  a shortest failing schedule takes 4 more steps; the explorer checked all 4 schedules "
                    + "that continue from here",
                "hint: run thread 0 (set contents)\n  a shortest failing schedule takes 3 more steps; the explorer checked all 2 schedules "
                    + "that continue from here",
                "hint: run thread 2 (storage barrier)\n  only one schedule remains from here, and it fails in 2 more steps",
                "hint: run thread 3 (storage barrier)\n  only one schedule remains from here, and it fails in 1 more step",
            ]
        )
        #expect(output.stdout.contains("The invariant broke: kept 1 of 2 keys (6 steps)."))
        // Thread 0 stored its key before thread 1 read the store: no order of the rest loses a key.
        let safe = try await Self.play(["1"], input: "0\n0\nh\nq\n")
        #expect(
            safe.unwrappedStdout.contains(
                "hint: no schedule from here breaks it within 2 more preemptions (the explorer checked the only one "
                    + "that continues from here)"
            )
        )
        #expect(safe.stdout.contains("u undoes a step."))
        // Before the first step there is nothing to undo: the hint does not offer it.
        let locked = try await Self.play(["2", "--variant", "lock"], input: "h\nq\n")
        #expect(locked.stdout.contains("hint: no schedule from here breaks it within 2 more preemptions"))
        #expect(!locked.stdout.contains("u undoes a step"), "\(locked.stdout)")
    }

    @Test("bad input gets one line and the prompt again; end of input ends the game cleanly")
    func badInput() async throws {
        let output = try await Self.play(["1"], input: "9\nx\n\n0\n0\n0\n")
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty)
        let prompt = "run which thread? (0, 1; u h r q ?) > "
        #expect(output.stdout.contains("\(prompt)9\nThere is no thread 9; type one of 0, 1.\n\(prompt)x\n"))
        #expect(
            output.stdout.contains(
                "\(prompt)x\nUnknown command 'x': type a thread number (0, 1), u, h, r, q or ?.\n\(prompt)\n"
            )
        )
        #expect(output.stdout.contains("Thread 0 cannot run now (it has finished); type one of 2.\n"))
        #expect(output.stdout.hasSuffix("End of input: the game ends here.\n"))
    }

    @Test("a line of thread numbers is that many steps: `0 0 2` does what three lines do")
    func lineOfSteps() async throws {
        let typed = try await Self.play(["1"], input: "0\n0\n2\n1\n1\n3\n")
        let line = try await Self.play(["1"], input: "0 0 2\n1 1 3\n")
        #expect(line.status == 0)
        #expect(line.stdout.contains("The invariant held after 6 steps."))
        #expect(try Self.replayString(line.joinedStdout) == Self.replayString(typed.joinedStdout))
        // Each number after the first is shown at its own prompt, as if typed there.
        let prompt = "run which thread? (0, 1; u h r q ?) > "
        #expect(line.stdout.hasPrefix(typed.stdout.prefix { $0 != ">" }))
        #expect(line.stdout.contains("\(prompt)0 0 2\n"))
        let twos = { (text: String) in text.components(separatedBy: "> 2\n").count }
        #expect(twos(line.stdout) == twos(typed.stdout))
        // The rest of a line stops at a number that cannot run (its usual line), and at the end.
        let stopped = try await Self.play(["1"], input: "0 9 1\n0 2 1 1 3 0 1\nq\n")
        let refused = "\(prompt)9\nThere is no thread 9; type one of 0, 1.\n\(prompt)0 2 1 1 3 0 1\n"
        #expect(stopped.stdout.contains(refused))
        #expect(stopped.stdout.contains("The execution ended: the rest of the line (0 1) was not played.\n"))
        #expect(stopped.stdout.contains("The invariant held after 6 steps."))
        // A word among the numbers makes the line one unknown command; `?` lists the form.
        let mixed = try await Self.play(["1"], input: "0 x\n?\nq\n")
        #expect(mixed.stdout.contains("Unknown command '0 x'"))
        #expect(mixed.stdout.contains("  0 0 1     several numbers: that many steps, in order"))
    }

    @Test(
        "the schedule a lesson's README gives for `make play-N` breaks it when pasted as one line",
        arguments: [
            ("04-coordinator-locking", "4"), ("05-persistent-store", "5"), ("06-async-data-source", "6"),
        ]
    )
    func readmeRecipe(folder: String, lesson: String) async throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Lessons/\(folder)/README.md"),
            encoding: .utf8
        )
        // `make play-5    # you schedule; 0 0 1 … breaks it`, or in lesson 4's prose `one line, `0 0 …``.
        let recipe = try #require(
            readme.firstMatch(of: /make play-\d\s+# you schedule; ([\d ]+) breaks it/)?.1
                ?? readme.firstMatch(of: /one line, `([\d ]+)`/)?.1
        )
        let output = try await Self.play([lesson], input: recipe + "\nq\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("You broke it."), "\(output.stdout)")
        #expect(!output.stdout.contains("Unknown command") && !output.stdout.contains("was not played"))
        #expect(output.unwrappedStdout.contains("(\(recipe.split(separator: " ").count) steps)."), "\(output.stdout)")
    }

    @Test(
        "play opens on the lesson's main bug: lesson 4's one-owner coordinator, not its baseline",
        arguments: [
            ("4", "lesson 4 (coordinator-locking), variant same-owner [buggy]:\n"),
            ("6", "lesson 6 (async-data-source), variant public-properties [buggy]:\n"),
        ]
    )
    func defaultVariant(lesson: String, heading: String) async throws {
        let output = try await Self.play([lesson], input: "q\n")
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix(heading))
    }

    @Test(
        "every line a game prints fits a projector: hints, state lines, the end and the timeline",
        .disabled(if: ThreadSanitizer.isActive, "the layout of the text: make test checks it"),
        arguments: ["1", "2", "3", "4", "5", "6"]
    )
    func fitsAProjector(lesson: String) async throws {
        // A hint before each choice, then every thread number in turn: the choices a thread cannot
        // take print their one line, the others play the game to its end.
        let round = "h\n0\n1\n2\n3\n"
        let output = try await Self.play([lesson], input: String(repeating: round, count: 30) + "q\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("hint: run "))
        #expect(output.stdout.contains("replay: "))
        let wide = output.stdout.split(separator: "\n").filter { $0.count > reportWidth }
        #expect(wide.isEmpty, "lines over \(reportWidth) columns: \(wide)")
    }

    @Test("lesson 6: the version each public property holds, between steps, as a change block assigns them")
    func lessonSix() async throws {
        // A shortest failing schedule: the UI reads the title, a change block runs, it reads the detail.
        let output = try await Self.play(["6"], input: "0\n0\n1\n1\n1\n1\n1\n2\n2\n2\n1\n3\n3\n3\nq\n")
        #expect(output.status == 0)
        // Who publishes what, for the two threads played.
        #expect(
            output.stdout.contains(
                "  thread 1 renders the UI once; thread 0 publishes v1, then v2; invariant: the UI saw one whole\n"
            )
        )
        // The writer's steps are named after the API it calls, `change`; the UI's step that reads the
        // footer and the title says so, and both reads show: the footer beside the one the data
        // source holds, the title under "UI got".
        #expect(output.stdout.contains("  thread 0  next: change\n"))
        #expect(!output.stdout.contains("next: update"))
        #expect(output.stdout.contains("  thread 1  next: read footer, title\n"))
        #expect(output.stdout.contains("step 1   state: header v0, items v0, footer v0; UI got nothing yet\n"))
        // The first change block between its sets (after its barrier step and `set header`): a header that
        // names a state its items are not.
        #expect(
            output.stdout.contains(
                "step 10   state: header v1 (UI v0), items v0 (UI v0), footer v0 (UI v0); UI got title v0\n"
            )
        )
        // What the UI read: the title before the change block, the detail after it.
        #expect(
            output.stdout.contains(
                "step 14   state: header v2 (UI v0), items v1 (UI v0), footer v1 (UI v0); UI got title v0, detail v1\n"
            )
        )
        #expect(
            output.stdout.contains(
                "The invariant broke: the UI saw torn cell: title \"v0 #0\" shown with detailed title \"v1 #0 more\" (not\n"
                    + "  the story's mixed state) (14 steps).\n"
            )
        )
        #expect(
            output.stdout.contains(
                "  state at the end: header v2 (UI v0), items v2 (UI v0), footer v2 (UI v0);\n"
                    + "                    UI got title v0, detail v1\n"
            )
        )
    }

    @Test("lesson 6: explore's failing schedule, played, ends with the story: header and list disagree")
    func lessonSixStory() async throws {
        // The change block runs between the UI's header read (a step of its own) and its items read.
        let output = try await Self.play(["6"], input: "0\n0\n1\n1\n1\n2\n2\n2\n1\n1\n1\n3\n3\n3\nq\n")
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "The invariant broke: the UI saw mixed state: header says 2 items, the list shows 3 (header v0, items\n"
                    + "  v1, footer v1) (14 steps).\n"
            )
        )
        // The mixed read is said where it is played, step 9, before step 10 is offered; the end marks it.
        let seen = "✗ invariant first seen broken at step 9 (thread 1): mixed state: read header v0, then items v1\n"
        #expect(output.stdout.contains("\n" + seen + "step 10 "))
        #expect(output.stdout.contains("\n  " + seen + "replay: "))
        #expect(output.stdout.contains("     9                        read items  ✗ seen broken\n"))
        // The steps named after a queue (`sync ui`, `public-properties barrier`) are explained as
        // `explore` explains them, by those names, once each, while the game offers them, not only
        // at its end.
        let end = try #require(output.stdout.range(of: "The invariant broke"))
        for legend in [
            "  sync ui: the thread waits until queue ui has run its block\n",
            "  public-properties barrier: a block that queue public-properties runs alone (a barrier)\n",
        ] {
            #expect(output.stdout.components(separatedBy: legend).count == 2, "\(legend)")
            #expect(output.stdout.range(of: legend).map { $0.lowerBound < end.lowerBound } == true, "\(legend)")
        }
        // Each kind once, whichever queue its later steps are on.
        for kind in [": the thread waits until ", " item: a block that ", " barrier: a block that "] {
            #expect(output.stdout.components(separatedBy: kind).count <= 2, "\(kind)")
        }
    }

    @Test(
        "lesson 3: the lost update, with the item's updates and each suspended call's copy between steps",
        arguments: ["buggy-update", "main-actor-update"]
    )
    func lessonThree(variant: String) async throws {
        let output = try await Self.play(["3", "--variant", variant], input: "0\n1\n0\n1\nq\n")
        #expect(output.status == 0)
        #expect(output.stdout.contains("state: item 0 has updates []; calls reported applied []"))
        // Both calls suspended on the same empty copy: each will write back its own update alone.
        #expect(output.stdout.contains("task 0 read [] → will write [1]"))
        #expect(output.stdout.contains("task 1 read [] → will write [2]"))
        // Task 0 wrote back; task 1's stale copy is still on its way.
        #expect(output.stdout.contains("item 0 has updates [1]; calls reported applied [1]"))
        #expect(output.stdout.contains("The invariant broke: item 0 has updates [2]; lost [1] (4 steps)."))
        #expect(
            output.joinedStdout.contains(
                "replay: \(Executable.racelab.path) explore 3 --variant \(variant) --replay 2:0.1.0.1"
            )
        )
    }

    @Test("lesson 3's fixed variant: every sentence play prints names the async units tasks")
    func lessonThreeFixedSaysTasks() async throws {
        let output = try await Self.play(["3", "--variant", "await-first"], input: "?\n0\n0\nh\n1\n1\nq\n")
        #expect(output.status == 0)
        let text = output.joinedStdout
        #expect(text.contains("the explorer checked all 6 schedules of 2 tasks and the work they start"))
        #expect(text.contains("run that task to its next scheduling point"))
        #expect(text.contains("run which task?"))
        #expect(!text.contains("thread"))
        // Each label names the step that runs when it is chosen: after the load, the read, the
        // change and the write, in one job.
        #expect(text.contains("task 0  next: load done: read, add, write"))
    }

    @Test("lesson 3 with a refresh: reloadItem's store after the await puts the removed item back")
    func lessonThreeRefresh() async throws {
        let output = try await Self.play(
            ["3", "--variant", "buggy-reload", "--threads", "3"],
            input: "0\n2\n2\n0\n1\n1\nq\n"
        )
        #expect(output.status == 0)
        let text = output.unwrappedStdout
        #expect(text.contains("task 2 refreshes the list (clear(), then setItems with new ids)"))
        #expect(text.contains("task 2  next: call setItems(new ids)"))
        #expect(text.contains("task 0 holds item 0 as read, [], plus update 1; slot 0 holds item 4 now"))
        // The store that does the damage says so at its step, before the game ends.
        let seen = "invariant first seen broken at step 4 (task 0): reloadItem stored the old item 0 over item 4"
        let end = "The invariant broke: item 0, which clear() removed, is back; item 4 is gone"
        let broke = try #require(text.range(of: end), "\(text)")
        let first = try #require(text.range(of: seen), "\(text)")
        #expect(first.upperBound < broke.lowerBound, "\(text)")
    }

    @Test(
        "colours only on a terminal, and never with NO_COLOR set to anything but the empty string",
        arguments: [
            (true, [:], true), (true, ["NO_COLOR": "1"], false), (true, ["NO_COLOR": ""], true),
            (false, [:], false), (false, ["NO_COLOR": "1"], false),
        ] as [(Bool, [String: String], Bool)]
    )
    func colourRule(terminal: Bool, environment: [String: String], coloured: Bool) {
        #expect(TerminalStyle.colours(terminal: terminal, environment) == coloured)
        let style = TerminalStyle(enabled: coloured)
        #expect(style.red("broke").contains("\u{1B}[") == coloured)
    }

    @Test(
        "bad play usage is refused with one line and exit 2",
        arguments: [
            (["play"], "which lesson? give a number or a slug"),
            (["play", "1", "--variant", "nope"], "lesson 1 has no variant 'nope'\n  its variants are: "),
            (["play", "1", "--threads", "9"], "--threads must be an integer from 1 to 8, got '9'"),
            (["play", "1", "--json"], "unknown option '--json'"),
        ]
    )
    func badUsage(arguments: [String], message: String) async throws {
        let output = try await Executable.racelab.run(arguments, input: "")
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("racelab: error: \(message)"))
    }
}

/// `racelab explore --html` and `--trace`: the failing schedule as a page and as a trace.
@Suite("racelab explore draws the failing schedule")
struct SchedulePictureCommandLineTests {
    /// Runs `explore` on `arguments` with `--html` and `--trace` into a scratch folder; returns the
    /// output and both files' text.
    static func explore(_ arguments: [String]) async throws -> (Executable.Output, html: String, trace: String) {
        try await Executable.withTemporaryFolder("racelab-picture") { folder in
            let html = folder.appendingPathComponent("schedule.html")
            let trace = folder.appendingPathComponent("schedule.json")
            let output = try await Executable.racelab.run(
                ["explore"] + arguments + ["--html", html.path, "--trace", trace.path]
            )
            return (
                output, try String(contentsOf: html, encoding: .utf8), try String(contentsOf: trace, encoding: .utf8)
            )
        }
    }

    @Test("lesson 1's page: no external URL, every step, the failing step marked, the states and the replay")
    func lessonOnePage() async throws {
        let (output, html, _) = try await Self.explore(["1", "--variant", "buggy"])
        #expect(output.status == 0)
        for scheme in ["http:", "https:", "//", "src=", "@import", "url("] {
            #expect(!html.contains(scheme), "\(scheme)")
        }
        let rows = html.split(separator: "\n").filter { $0.hasPrefix("<tr class=\"step") }
        #expect(rows.count == 6)
        #expect(rows.filter { $0.contains("sync storage") }.count == 2)
        #expect(rows.filter { $0.contains("set contents") }.count == 2)
        #expect(rows.filter { $0.contains("class=\"step failing\"") }.count == 1)
        #expect(rows.last?.contains("class=\"step failing\" data-step=\"6\"") == true)
        #expect(
            html.contains(
                "<th>thread 0</th><th>thread 1</th><th>thread 2: storage barrier</th><th>thread 3: storage barrier</th>"
                    + "<th>state after the step</th>"
            )
        )
        #expect(html.contains("store holds [item-"))
        #expect(html.contains("invariant: every key is present"))
        let replay = try PlayCommandLineTests.replayString(output.joinedStdout)
        #expect(html.contains("racelab explore 1 --variant buggy --replay \(replay)"))
    }

    @Test("the trace is valid JSON: one named track per thread, one slice per step")
    func lessonThreeTrace() async throws {
        let (output, _, trace) = try await Self.explore(["3", "--variant", "buggy-update"])
        #expect(output.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(trace.utf8)) as? [String: Any]
        )
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let names = events.filter { $0["name"] as? String == "thread_name" }
        let named = names.compactMap { ($0["tid"] as? Int, ($0["args"] as? [String: String])?["name"]) }
        #expect(named.map(\.0) == [0, 1])
        #expect(named.map(\.1) == ["thread 0", "thread 1"])
        let slices = events.filter { $0["ph"] as? String == "X" }
        #expect(slices.count == 4)
        #expect(Set(slices.compactMap { $0["tid"] as? Int }) == [0, 1])
        #expect(slices.allSatisfy { ($0["name"] as? String).map { !$0.isEmpty } ?? false })
    }

    @Test(
        "a page or trace that cannot be written (a full disk) is an error, exit 3, in one line",
        .enabled(if: TinyFileSystem.available, "needs a mountable tmpfs"),
        arguments: [("--html", "the HTML page"), ("--trace", "the trace")]
    )
    func fullDisk(option: String, what: String) async throws {
        let disk = try TinyFileSystem.mount(kilobytes: 4)
        defer { TinyFileSystem.unmount(disk) }
        // An empty file passes the checks; another file holds the disk's one page.
        let target = disk.appendingPathComponent("out").path
        #expect(FileManager.default.createFile(atPath: target, contents: nil))
        #expect(
            FileManager.default.createFile(atPath: disk.appendingPathComponent("filler").path, contents: Data("x".utf8))
        )
        let output = try await Executable.racelab.run(["explore", "1", "--variant", "buggy", option, target])
        #expect(output.status == 3)
        #expect(output.stderr.hasPrefix("racelab: error: cannot write \(what) to '\(target)': "))
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test("a fixed variant's page says no schedule failed, and its trace has no track")
    func fixedVariant() async throws {
        let (output, html, trace) = try await Self.explore(["1", "--variant", "fixed"])
        #expect(output.status == 0)
        #expect(html.contains("No failing schedule."))
        #expect(!html.contains("<tr class=\"step"))
        #expect(!trace.contains("thread_name"))
    }
}

/// `racelab run --html`: the run report as a page, its histograms as bars.
@Suite("racelab run --html draws the report")
struct RunPageCommandLineTests {
    @Test("lesson 1's buggy store: one bar per histogram row, as long as its share; no external URL")
    func lessonOneReport() async throws {
        try await Executable.withTemporaryFolder("racelab-run-page") { folder in
            let page = folder.appendingPathComponent("run.html")
            let output = try await Executable.racelab.run(
                ["run", "1", "--variant", "buggy", "--trials", "20", "--seed", "7", "--json", "--html", page.path]
            )
            #expect(output.status == 0)
            let html = try String(contentsOf: page, encoding: .utf8)
            for scheme in ["http:", "https:", "src=", "url("] {
                #expect(!html.contains(scheme), "\(scheme)")
            }
            // The page and the JSON report are the same run: each histogram row is one bar whose
            // length is its share of the trials (14em for all of them).
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            )
            let lessons = try #require(report["lessons"] as? [[String: Any]])
            let variant = try #require((lessons.first?["variants"] as? [[String: Any]])?.first)
            let rows = try #require(variant["histogram"] as? [[String: Any]])
            #expect(!rows.isEmpty)
            let bars = html.split(separator: "\n").filter { $0.contains("<div class=\"bar ") }
            #expect(bars.count == rows.count)
            for row in rows {
                let outcome = try #require(row["outcome"] as? String)
                let frequency = try #require(row["frequency"] as? Double)
                let width = String(format: "%.2f", max(0.1, frequency * 14))
                #expect(bars.contains { $0.contains("<code>\(outcome)</code>") && $0.contains("width: \(width)em") })
            }
            #expect(html.contains("REPRODUCED"))
        }
    }
}

import Foundation
import RaceLab
import Testing

/// What a workshop room sees: command lines that run as printed, and text that fits a projector.
@Suite("racelab's output, as a workshop room uses it")
struct ProjectorOutputTests {
    /// The repository's root folder, where `make` runs the tool as `.build/…/racelab`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `command` with `/bin/sh` in the repository's root folder, as a participant pasting it would.
    static func shell(_ command: String) async throws -> Executable.Output {
        let (status, stdout) = try await Executable.capture(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", command],
            in: root,
            stderr: .discarded
        )
        return Executable.Output(status: status, stdout: stdout, stderr: "")
    }

    @Test("the replay line explore prints, run from the repository root as printed, reproduces the failure")
    func replayLineRunsAsPrinted() async throws {
        let (relative, command) = try await Self.replayRunsAsPrinted("1 --variant buggy")
        #expect(
            command.replacingOccurrences(of: " \\\n      ", with: " ")
                .hasPrefix("\(relative) explore 1 --variant buggy --replay ")
        )
    }

    /// Runs `explore <arguments>` as make runs the tool, then the replay command it printed, as
    /// printed: the replay must reproduce the failure. The tool's relative path and the command.
    static func replayRunsAsPrinted(_ arguments: String) async throws -> (tool: String, command: String) {
        let relative = try relativeTool()
        let explored = try await shell("\(relative) explore \(arguments)")
        #expect(explored.status == 0)
        let command = try printedCommand(explored.stdout)
        let replayed = try await shell(command)
        #expect(replayed.status == 0)
        #expect(replayed.stdout.contains("verdict: REPRODUCED"))
        return (relative, command)
    }

    /// The tool as make runs it: its path relative to the repository's root.
    static func relativeTool() throws -> String {
        try #require(
            Executable.racelab.path.hasPrefix(root.path + "/")
                ? String(Executable.racelab.path.dropFirst(root.path.count + 1)) : nil
        )
    }

    /// The first replay command in `stdout`, as printed: its `replay: ` line and each line that
    /// continues it (after a line ending in ` \`), without the `  replay: ` before it.
    static func printedCommand(_ stdout: String) throws -> String {
        let lines = stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("  replay: ") })
        var end = start
        while lines[end].hasSuffix(" \\") && end + 1 < lines.endIndex { end += 1 }
        #expect(lines[start...end].allSatisfy { $0.count <= reportWidth })
        return String(lines[start...end].joined(separator: "\n").dropFirst("  replay: ".count))
    }

    @Test("a replay command longer than a line wraps with a trailing backslash, and runs as printed")
    func wrappedReplayRunsAsPrinted() async throws {
        let (_, command) = try await Self.replayRunsAsPrinted("6 --variant update-without-barrier")
        #expect(command.contains(" \\\n"), "the command did not wrap: \(command)")
    }

    @Test(
        "explore, every lesson by default: no line wider than 100 columns, no search internals unless --verbose",
        .disabled(if: ThreadSanitizer.isActive, "the layout of the text: make test checks it"),
        arguments: 1...6
    )
    func exploreFitsAProjector(lesson: Int) async throws {
        let output = try await Executable.racelab.run("explore", "\(lesson)")
        #expect(output.status == 0)
        let wide = output.stdout.split(separator: "\n").filter { $0.count > reportWidth }
        #expect(wide.isEmpty, "lines over \(reportWidth) columns:\n\(wide.joined(separator: "\n"))")
        // Search jargon: per-schedule timing, traces, states, the strategy's settings, what a step was in full.
        // The scope in plain words: no reduction's name, no "bound" left undefined.
        for jargon in [
            "ms per schedule", "distinct trace", "distinct state", "strategy dfs", "granularity:", "reduction ",
            "within the bound", "up to reordering", "of them failing",
        ] {
            #expect(!output.stdout.contains(jargon), "\(jargon)")
        }
        // No step label is cut: a long one goes on under itself.
        #expect(!output.stdout.contains("…"))
        // The lesson's summary line closes the output, after every variant's block.
        let summary = try #require(output.stdout.range(of: "\nlesson \(lesson): ", options: .backwards))
        #expect(output.stdout[summary.lowerBound...].hasSuffix(" → PASS\n\n"), "\(output.stdout)")
        // Each variant opens with its verdict (under its heading, at most three lines) and fits a screen.
        let blocks = ("\n" + output.stdout[..<summary.lowerBound]).components(separatedBy: "\nlesson ").dropFirst()
        #expect(!blocks.isEmpty)
        // What a run says once: each name the queue legend explains, what a step is, a clean
        // verdict's scope. A legend line names the steps it explains as the schedule above it does.
        let legendKinds = [
            ": the thread waits until ", ": the thread hands a block to ", " item: a block that ",
            " barrier: a block that ",
        ]
        var explainedNames: Set<String> = []
        let stepLines = [
            "  each step: code from one scheduling point to the next, named after the point it starts at",
            "  a data race inside a step is ThreadSanitizer's to find",
        ]
        var said: Set<String> = []
        var lastScope: String?
        for block in blocks {
            let lines = block.split(separator: "\n").map(String.init)
            #expect(lines.count <= 40, "\(block)")
            let verdict = try #require(lines.firstIndex { $0.hasPrefix("  verdict: ") }, "\(block)")
            #expect(verdict <= 3, "\(block)")
            // A schedule that names steps after a queue says what each name means, the first time the
            // run shows it, whatever kind of step it is and whichever earlier name of that kind was
            // explained: `sync ui` steps, `documents barrier` threads after `store A barrier`.
            let steps = lines.drop { !$0.contains("SCHEDULE") }
            var shown: Set<String> = []
            for line in steps {
                if let thread = line.firstMatch(of: #/ is '(.+ (?:item|barrier))', started by /#) {
                    shown.insert(String(thread.1))
                } else if line.firstMatch(of: #/^ +\d+ /#) != nil {
                    let cells = line.split(separator: #/ {2,}/#)
                    for cell in cells where cell.hasPrefix("sync ") || cell.hasPrefix("async ") {
                        shown.insert(String(cell))
                    }
                }
            }
            let legendLines = steps.filter { line in
                line.hasPrefix("    ") && legendKinds.contains { line.contains($0) }
            }
            let explained = legendLines.flatMap {
                $0.dropFirst(4).components(separatedBy: ": ")[0].components(separatedBy: ", ")
            }
            #expect(explained.count == Set(explained).count, "\(block)")
            #expect(Set(explained) == shown.subtracting(explainedNames), "\(explainedNames)\n\(block)")
            explainedNames.formUnion(shown)
            var legend: [String] = []
            // What a step is: under the first block's counts, above any schedule, whatever its verdict.
            legend += stepLines
            // What a preemption is, under the first block that counts them.
            // It names the units the block's exploration ran: tasks for async bodies.
            let unit =
                block.contains("(actor-reentrancy)") || block.contains("variant actor-state ") ? "task" : "thread"
            let preemptionLine = "  a preemption: the explorer switches away from a \(unit) that could go on"
            if lines.contains(where: { $0.contains("at most 2 preemptions") }) { legend.append(preemptionLine) }
            for line in legend {
                #expect(lines.filter { $0 == line }.count == (said.contains(line) ? 0 : 1), "\(line)\n\(block)")
                said.insert(line)
            }
            // A clean verdict's scope: in full, or `the same scope as above` when it is the one printed last.
            if lines[verdict].hasPrefix("  verdict: CLEAN (") {
                let scope = ([lines[verdict]] + lines[(verdict + 1)...].prefix { $0.hasPrefix("    ") })
                    .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                if scope == "verdict: CLEAN (the same scope as above)" {
                    #expect(lastScope != nil, "\(block)")
                } else {
                    #expect(scope != lastScope, "a scope repeated in full:\n\(block)")
                    lastScope = scope
                }
            }
        }
        let verbose = try await Executable.racelab.run("explore", "\(lesson)", "--verbose")
        #expect(verbose.stdout.contains("ms per schedule") && verbose.stdout.contains("strategy dfs"))
    }

    @Test("run, every lesson, a short workload: no line wider than 100 columns")
    func runFitsAProjector() async throws {
        let output = try await Executable.racelab.run("run", "all", "--trials", "4")
        let wide = output.stdout.split(separator: "\n").filter { $0.count > reportWidth }
        // The lines measured include every lesson's header and its variants' `▸ name [kind] summary`
        // lines, which `run N` prints the same. Counted in characters (a terminal's columns), not bytes.
        for lesson in 1...6 { #expect(output.stdout.contains("RaceLab · lesson \(lesson): ")) }
        #expect(output.stdout.contains("▸ ") && output.stdout.contains(" [fixed] "))
        #expect(wide.isEmpty, "lines over \(reportWidth) columns:\n\(wide.joined(separator: "\n"))")
    }

    @Test("run 5: the legend under the variants says what its lost writes and inconsistencies count")
    func lessonFiveCountLegend() async throws {
        let output = try await Executable.racelab.run("run", "5", "--trials", "2", "--variant", "non-atomic-write")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        // Its only evidence is torn reads: reproduced, it counted inconsistencies.
        let legend = """
            what the counts count (mean per trial = total ÷ trials that ran without an error):
              inconsistencies: times a file went back to an older version (a store found one in place as it
                completed, or an outside read saw one after a newer), reads (a load's or the outside reader's)
                that found a torn file, another document or none, files left torn or holding a failed store
              (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

            lesson 5: buggy reproduced 1/1 → PASS: the bug showed, as the lesson expects
            """
        #expect(output.stdout.hasSuffix(legend + "\n\n"), "\(output.stdout)")
    }

    @Test(
        "run 5 --verbose: a went-back sample names the document, the stores' queues and the older version",
        arguments: ["no-barrier", "two-stores"]
    )
    func lessonFiveWentBackSample(variant: String) async throws {
        let shape =
            variant == "no-barrier"
            // One store without a barrier: the older version was renamed in by another call on the
            // same instance.
            ? #/e\.g\. went back: document-[0-3]: the store of v(\d+) reported success, then its file held the older v(\d+), renamed in later by another storeData call on the same PersistentDataStore instance: the two writes overlapped/#
            // Two stores on one folder: the versions went through different stores' queues.
            : #/e\.g\. went back: document-[0-3]: the store of v(\d+) through store [AB] reported success, then its file held the older v(\d+) through store [AB]: each barrier orders only its own queue/#
        let output = try await Executable.racelab.run("run", "5", "--variant", variant, "--verbose")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        // A sample wider than the screen wraps, its continuation indented deeper: joined back here.
        var samples: [String] = []
        var sampleIndent: Int?
        for line in output.stdout.split(separator: "\n") {
            let indent = line.prefix { $0 == " " }.count
            let text = String(line.dropFirst(indent))
            if text.hasPrefix("e.g. ") {
                samples.append(text)
                sampleIndent = indent
            } else if let sampleIndent, indent > sampleIndent {
                samples[samples.count - 1] += " " + text
            } else {
                sampleIndent = nil
            }
        }
        let wentBack = samples.filter { $0.hasPrefix("e.g. went back: ") }
        // Both variants go back in most of their 20 trials of 400 stores: a run shows at least one.
        #expect(!wentBack.isEmpty, "\(output.stdout)")
        for sample in wentBack {
            let match = try #require(try shape.wholeMatch(in: sample), "\(sample)")
            #expect(Int(match.2)! < Int(match.1)!, "\(sample)")
        }
        if variant == "two-stores", let sample = wentBack.first {
            // The two versions went through different stores: each names a store of its own.
            let stores = sample.matches(of: /through (store [AB])/).map { String($0.1) }
            #expect(Set(stores).count == 2, "\(sample)")
        }
    }

    @Test("explore 5 --replay: the header counts the table's columns, the started queue blocks included")
    func lessonFiveReplayCountsColumns() async throws {
        let search = try await Executable.racelab.run("explore", "5", "--variant", "no-barrier")
        let replayLine = try #require(search.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        let replay = try #require(replayLine.split(separator: " ").last.map(String.init))
        let output = try await Executable.racelab.run("explore", "5", "--variant", "no-barrier", "--replay", replay)
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        // Each store runs as a block of the queue, started by the thread that submitted it.
        #expect(lines.contains("  replayed 1 schedule on 4 threads (the program's 2 and 2 started during the replay)"))
        let header = try #require(lines.first { $0.hasPrefix("    step  ") }, "\(output.stdout)")
        #expect(header.split(separator: " ").filter { $0 == "thread" }.count == 4, "\(header)")
    }

    @Test("run 4: the overlaps are counted under their own name, in the legend too; --verbose shows only its counts")
    func lessonFourCounts() async throws {
        let output = try await Executable.racelab.run("run", "4", "--trials", "2", "--variant", "same-owner")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(output.stdout.contains("· mean per trial of 200 iterations: "))
        let legend = """
            what the counts count (mean per trial = total ÷ trials that ran without an error):
              lost writes: increments that ran (mutatingObject returned) but are not in the final value
              overlaps: increments that began while another was still in its read-modify-write of the file
              (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

            lesson 4: buggy reproduced 1/1 → PASS: the bug showed, as the lesson expects
            """
        #expect(output.stdout.hasSuffix(legend + "\n\n"), "\(output.stdout)")
        let verbose = try await Executable.racelab.run(
            "run",
            "4",
            "--trials",
            "2",
            "--variant",
            "coordinated",
            "--verbose"
        )
        #expect(verbose.status == 0, "stderr: \(verbose.stderr)")
        #expect(verbose.stdout.contains("\n  lost writes       0 total, 0.00 per trial\n"))
        #expect(verbose.stdout.contains("\n  overlaps          0 total, 0.00 per trial\n"))
        #expect(!verbose.stdout.contains("inconsistencies"), "lesson 4 calls them overlaps:\n\(verbose.stdout)")
        #expect(!verbose.stdout.contains("duplicates"), "lesson 4 counts no duplicates:\n\(verbose.stdout)")
    }

    @Test(
        "run 6 by default: each variant is its verdict line, what decided it and one sample; --verbose the rest",
        .disabled(
            if: ThreadSanitizer.isActive,
            "lesson 6's buggy variants race on purpose: under TSan their processes exit 66 with a report (make tsan reads those), not the output a room sees"
        )
    )
    func lessonSixAtAGlance() async throws {
        let output = try await Executable.racelab.run("run", "6", "--trials", "6")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let blocks = output.stdout.components(separatedBy: "\n▸ ").dropFirst()
        #expect(blocks.count == 11)
        for block in blocks {
            let lines = block.split(separator: "\n").prefix {
                !$0.hasPrefix("lesson 6:") && !$0.hasPrefix("what the counts count")
            }
            // A verdict line may wrap: to three lines when a trial died from a signal, a known outcome of
            // update-without-barrier that its verdict names.
            #expect(lines.count <= 6, "\(block)")
            let verdict = try #require(lines.first { $0.hasPrefix("  ✓ ") }, "\(block)")
            let buggy = lines[lines.startIndex].contains(" [buggy] ")
            #expect(verdict.hasPrefix(buggy ? "  ✓ REPRODUCED" : "  ✓ CLEAN: no anomaly in 6 trials"), "\(block)")
            // What decided a buggy verdict is a forbidden outcome, never the good news of a clean trial;
            // the trials without the bug are named after it, out of all trials ("; in the other 2 of
            // 6 trials: in order · …"), and only there may good news stand.
            if buggy {
                let joined = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                let others = #/; in (?:the other )?[\d,]+ of [\d,]+ trials(?:, without it)?: .*?(?= e\.g\. |$)/#
                #expect(!joined.replacing(others, with: "").contains("in order"), "\(block)")
            }
            // Every reproduced bug shows one thing it saw, observers told a state twice included.
            if buggy { #expect(lines.contains { $0.hasPrefix("    e.g. inconsistency: ") }, "\(block)") }
        }
        // Under the variants: what the counts on their lines count.
        #expect(
            output.stdout.contains(
                """
                what the counts count (mean per trial = total ÷ trials that ran without an error):
                  lost writes: updates missing from the data source's final version
                  inconsistencies: UI reads of a state no writer stored (mixed state, torn cell) or of an older
                    state after a newer one (older after newer), and observers told a state twice, out of order,
                    skipped, or not the last one
                  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

                """
            )
        )
        #expect(!output.stdout.contains("OUTCOME"))
        #expect(!output.stdout.contains("anomalous trials"))
        let block = try #require(blocks.first { $0.hasPrefix("update-without-barrier ") })
        // Its lost writes are shown whether or not a trial crashed; read across wrapped lines.
        let updates = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(
            separator: " "
        )
        #expect(updates.contains("lost writes") && updates.contains("updates lost →"), "\(block)")

        let verbose = try await Executable.racelab.run(
            "run",
            "6",
            "--trials",
            "2",
            "--variant",
            "state-object",
            "--verbose"
        )
        #expect(verbose.status == 0)
        #expect(verbose.stdout.contains("OUTCOME") && verbose.stdout.contains("anomalous trials"))
    }
}

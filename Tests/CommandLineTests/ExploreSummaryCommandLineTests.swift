import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// A whole lesson's exploration ends with one summary line in `run`'s words: the counts, then the
/// exit status and the variants (or files) that decided it. One variant's exploration has none.
@Suite("racelab explore N ends with the lesson's summary line and what decided its exit status")
struct ExploreSummaryCommandLineTests {
    /// The output's last line (its summary wrapped to the width joined back into one line).
    static func summary(_ output: Executable.Output) -> String {
        let blocks = output.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        return (blocks.last ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    @Test("every verdict as expected: PASS, exit 0; one variant's exploration has no summary")
    func pass() async throws {
        let output = try await Executable.racelab.run("explore", "1")
        #expect(output.status == 0)
        #expect(Self.summary(output) == "lesson 1: buggy found 1/1, fixed clean 2/2 → PASS")
        let variant = try await Executable.racelab.run("explore", "1", "--variant", "fixed")
        #expect(variant.status == 0)
        #expect(!variant.stdout.contains("lesson 1: "))
        #expect(!variant.stdout.contains("→ PASS"))
    }

    @Test("a buggy variant whose bug no schedule shows: FAIL, exit 1, naming it and its verdict")
    func buggyNotFound() async throws {
        // Without a preemption, the two stores never interleave inside the window.
        let output = try await Executable.racelab.run("explore", "1", "--preemptions", "0")
        #expect(output.status == 1)
        #expect(Self.summary(output) == "lesson 1: buggy found 0/1, fixed clean 2/2 → FAIL, exit 1 (buggy: not found)")
    }

    @Test("a verdict that is evidence beside ones that are not: FAIL, exit 1, naming every one")
    func failBesidesNoVerdict() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--schedules", "1")
        #expect(output.status == 1)
        #expect(
            Self.summary(output)
                == "lesson 1: buggy found 0/1, fixed clean 0/2 → FAIL, exit 1 (buggy: not found; "
                + "fixed: clean, not exhaustive; actor: clean, not exhaustive)"
        )
        #expect(output.stdout.split(separator: "\n").allSatisfy { $0.count <= reportWidth })
    }

    @Test("a fixed variant cut by the schedule limit: NO VERDICT, exit 3, naming it")
    func notExhaustive() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--schedules", "3")
        #expect(output.status == 3)
        #expect(
            Self.summary(output)
                == "lesson 1: buggy found 1/1, fixed clean 1/2 → NO VERDICT, exit 3 (fixed: clean, not exhaustive)"
        )
    }

    @Test("a stuck thread and threads never interleaved: NO VERDICT, exit 3")
    func inconclusiveAndNotInterleaved() async throws {
        let output = try await Executable.fixtures.run("explore", "stuck", "--stall", "3")
        #expect(output.status == 3)
        let summary = Self.summary(output)
        #expect(summary.hasPrefix("lesson 5: fixed clean 1/3 → NO VERDICT, exit 3 ("), "\(summary)")
        #expect(summary.contains("window-in-nslock: inconclusive"), "\(summary)")
        #expect(summary.contains("no-points: not interleaved"), "\(summary)")
    }

    @Test("a variant not explored counts neither way, and the summary says so")
    func notExplored() async throws {
        let output = try await Executable.racelab.run("explore", "4")
        #expect(output.status == 0)
        let summary = Self.summary(output)
        #expect(summary.hasPrefix("lesson 4: buggy found "), "\(summary)")
        #expect(summary.hasSuffix(", 1 not explored (not counted) → PASS"), "\(summary)")
    }

    @Test(
        "a page that cannot be written: ERROR, exit 3, naming it; the summary comes after the file",
        .enabled(if: TinyFileSystem.available, "needs a mountable tmpfs")
    )
    func pageNotWritten() async throws {
        let disk = try TinyFileSystem.mount(kilobytes: 4)
        defer { TinyFileSystem.unmount(disk) }
        // The page is several kilobytes: it passes the checks (an empty writable file) and fills the disk.
        let page = disk.appendingPathComponent("page.html").path
        #expect(FileManager.default.createFile(atPath: page, contents: nil))
        let output = try await Executable.racelab.run(["explore", "1", "--html", page])
        #expect(output.status == 3)
        #expect(output.stderr.contains("cannot write the HTML page"))
        #expect(
            Self.summary(output)
                == "lesson 1: buggy found 1/1, fixed clean 2/2 → ERROR, exit 3 (the HTML page: not written)"
        )
    }

    /// A variant whose exploration ended without a result, as its child reports one.
    static func ended(_ name: String, _ kind: VariantKind, _ verdict: Verdict) throws -> ExploreEntry {
        let json = """
            {"variant": "\(name)", "kind": "\(kind.rawValue)", "verdict": "\(verdict.rawValue)",
             "verdictReason": "r", "stderrTail": [], "asExpected": false}
            """
        return .failed(try JSONDecoder().decode(ExplorationFailure.self, from: Data(json.utf8)))
    }

    @Test("errors alone: ERROR, exit 3; a crash beside an error is evidence: FAIL, exit 1")
    func errorsAndCrashes() throws {
        let error = try Self.ended("store", .fixed, .error)
        let crash = try Self.ended("exits", .buggy, .crashed)
        #expect(RaceLabTool.exitCode(for: [error], written: true) == .error)
        #expect(
            RaceLabTool.summary(lesson: 7, entries: [error], unexplored: 0)
                == "lesson 7: fixed clean 0/1 → ERROR, exit 3 (store: error)\n"
        )
        #expect(RaceLabTool.exitCode(for: [crash, error], written: true) == .unexpectedVerdict)
        let summary = RaceLabTool.summary(lesson: 7, entries: [crash, error], unexplored: 2)
        #expect(summary.split(separator: "\n").allSatisfy { $0.count <= reportWidth })
        #expect(
            summary.replacingOccurrences(of: "\n  ", with: " ")
                == "lesson 7: buggy found 0/1, fixed clean 0/1, 2 not explored (not counted) → FAIL, exit 1 "
                + "(exits: crashed; store: error)\n"
        )
    }
}

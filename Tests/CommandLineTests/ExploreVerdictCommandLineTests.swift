import Foundation
import Testing

/// `racelab explore`'s verdicts end to end: a step bound is no bug, a non-exhaustive clean is said,
/// and a replay string that does not fit its variant is refused with one line and status 2.
@Suite("racelab explore: no verdict on an unfinished search, and no replay of another program")
struct ExploreVerdictCommandLineTests {
    /// The replay string of lesson 1's buggy variant's failing schedule, as `explore` prints it.
    static func lessonOneReplay() async throws -> String {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "buggy")
        let line = try #require(output.joinedStdout.split(separator: "\n").first { $0.contains("replay: ") })
        return try #require(line.split(separator: " ").last.map(String.init))
    }

    @Test("lesson 1 with --steps 1 is INCONCLUSIVE (status 3) with the remedy, not FOUND")
    func tinyStepBound() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "buggy", "--steps", "1")
        #expect(output.status == 3)
        #expect(output.stdout.contains("verdict: INCONCLUSIVE"))
        #expect(!output.stdout.contains("FOUND"))
        #expect(output.stdout.contains("--steps raises the bound"))
    }

    @Test("a fixed variant cut by the schedule limit says CLEAN, NOT EXHAUSTIVE, with status 3")
    func notExhaustiveFixed() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "fixed", "--schedules", "1")
        #expect(output.status == 3)
        #expect(output.stdout.contains("verdict: CLEAN, NOT EXHAUSTIVE (the schedule limit (--schedules) stopped"))
        let json = try await Executable.racelab.run("explore", "1", "--variant", "fixed", "--schedules", "1", "--json")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        )
        let variant = try #require((document["variants"] as? [[String: Any]])?.first)
        #expect(variant["exhaustive"] as? Bool == false)
        #expect((variant["scope"] as? String)?.contains("schedule limit") == true)
        #expect(json.status == 3)
    }

    @Test(
        "a fixed variant whose threads were never interleaved is NOT INTERLEAVED (status 3), naming them and the remedy"
    )
    func notInterleavedFixed() async throws {
        // `no-points`: each thread increments under an NSLock, with no mark: no scheduling point.
        let output = try await Executable.fixtures.run("explore", "stuck", "--variant", "no-points")
        #expect(output.status == 3, "a search that interleaved nothing is no verdict on the fix")
        #expect(output.unwrappedStdout.contains("verdict: NOT INTERLEAVED ("))
        #expect(output.unwrappedStdout.contains("some threads were never interleaved: no proof, see the warning"))
        #expect(!output.unwrappedStdout.contains("verdict: CLEAN"))
        #expect(
            output.unwrappedStdout.contains(
                "warning: threads 0 and 1 finished without reaching a scheduling point; each ran from its start "
                    + "to its end as one step"
            )
        )
        #expect(output.unwrappedStdout.contains("compile the code under test with the RaceLab switch"))
        #expect(output.unwrappedStdout.contains("@RaceShared"))
        let json = try await Executable.fixtures.run("explore", "stuck", "--variant", "no-points", "--json")
        #expect(json.status == 3)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        )
        let variant = try #require((document["variants"] as? [[String: Any]])?.first)
        #expect((variant["notInterleaved"] as? String)?.hasPrefix("threads 0 and 1 finished") == true)
    }

    @Test("a fixed variant explored on one thread is NOT INTERLEAVED: one schedule only")
    func oneThreadFixed() async throws {
        let output = try await Executable.fixtures.run(
            "explore",
            "stuck",
            "--variant",
            "window-in-racelock",
            "--threads",
            "1"
        )
        #expect(output.status == 3)
        #expect(output.unwrappedStdout.contains("verdict: NOT INTERLEAVED"))
        #expect(
            output.unwrappedStdout.contains(
                "nothing was explored: there is one schedule only, because the program has one thread (--threads)"
            )
        )
    }

    @Test("an exhaustive clean verdict names its scope and the granularity of a step")
    func exhaustiveScope() async throws {
        let output = try await Executable.racelab.run("explore", "1", "--variant", "fixed")
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "verdict: CLEAN (every schedule of 2 threads and the work they start, with at most 2 preemptions)"
            )
        )
        #expect(
            output.stdout.contains(
                "  each step: code from one scheduling point to the next, named after the point it starts at\n"
                    + "  a data race inside a step is ThreadSanitizer's to find\n"
            )
        )
        let verbose = try await Executable.racelab.run("explore", "1", "--variant", "fixed", "--verbose")
        #expect(verbose.unwrappedStdout.contains("a data race inside a step is ThreadSanitizer's to find"))
    }

    @Test("lesson 6's heading names the writers of the run's thread count")
    func lessonSixWriters() async throws {
        let output = try await Executable.racelab.run(
            "explore",
            "6",
            "--variant",
            "actor-state",
            "--threads",
            "3",
            "--preemptions",
            "0"
        )
        #expect(output.status == 0)
        #expect(
            output.unwrappedStdout.hasPrefix(
                "lesson 6 (async-data-source), variant actor-state [fixed]: task 1 reads the actor's state "
                    + "twice and renders it; tasks 0 and 2 each publish the next state twice (v1 to v4 between "
                    + "them); invariant: one whole state, never older on the second read, no update lost verdict: CLEAN"
            )
        )
    }

    @Test("the printed replay string names its program and reproduces")
    func replayFits() async throws {
        let replay = try await Self.lessonOneReplay()
        #expect(replay.contains("@"))
        let again = try await Executable.racelab.run("explore", "1", "--variant", "buggy", "--replay", replay)
        #expect(again.status == 0)
        #expect(again.stdout.contains("verdict: REPRODUCED"))
    }

    /// How a test alters a good replay string.
    enum Tamper: String, CaseIterable, Sendable {
        case missingThread, noProgram, extraChoices
        case otherVariant, otherLesson

        func apply(to replay: String) -> (lesson: String, variant: String, replay: String, reason: String) {
            switch self {
            case .missingThread: ("1", "buggy", replay.replacingOccurrences(of: ":", with: ":0.1.9."), "thread 9")
            case .noProgram: ("1", "buggy", String(replay.split(separator: "@")[0]), "names no program")
            case .extraChoices:
                ("1", "buggy", replay.replacingOccurrences(of: "@", with: ".0.0@"), "finished after")
            case .otherVariant: ("1", "fixed", replay, "another program")
            case .otherLesson: ("2", "buggy", replay, "another program")
            }
        }
    }

    @Test(
        "a replay string that does not fit is refused with one line and status 2, and nothing runs",
        arguments: Tamper.allCases
    )
    func misfitRefused(tamper: Tamper) async throws {
        let (lesson, variant, replay, reason) = tamper.apply(to: try await Self.lessonOneReplay())
        let output = try await Executable.racelab.run("explore", lesson, "--variant", variant, "--replay", replay)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        // One line with the reason (a malformed string is a usage error: the synopsis follows it).
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.first?.contains(reason) == true, "\(output.stderr)")
        #expect(lines.count == 1 || lines[1].hasPrefix("usage: "))
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("   ") })
    }
}

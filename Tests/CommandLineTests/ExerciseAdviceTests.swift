import Foundation
import Testing

/// What `Scripts/check-exercise` tells a participant after a FAIL: the outcomes a stress run saw,
/// the figures in the FAIL line, and the `Next:` line, which follows the failure that happened.
/// Each test checks a starter or a planted wrong fix of the repository through the real checker
/// (which builds the exercise's harness in release mode in `.build-exercise/`, shared by every
/// check: the suite runs one check at a time).
@Suite("a failed exercise check advises what its failure calls for", .serialized)
struct ExerciseAdviceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// What to check: the file at a path, or the starter with a patch applied (paths from the root).
    enum Planted: Sendable {
        case file(String)
        case patch(String)
    }

    /// Runs `Scripts/check-exercise exercise --file|--patch <path> --expect fail --expect-diagnosis
    /// kind`, expecting exit status 0 (the expected FAIL and diagnosis); its output lines.
    static func check(
        exercise: Int,
        _ planted: Planted,
        diagnosis kind: String
    ) throws -> [String] {
        let (option, path) =
            switch planted {
            case .file(let path): ("--file", path)
            case .patch(let path): ("--patch", path)
            }
        let (status, text) = try Executable.capture(
            root.appendingPathComponent("Scripts/check-exercise"),
            [String(exercise), option, path, "--expect", "fail", "--expect-diagnosis", kind],
            in: root,
            stderr: .merged
        )
        let lines = text.split(separator: "\n").map(String.init)
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        return lines
    }

    @Test(
        "a retry that asks the referee again fails after the concurrent run, and Next says so",
        .timeLimit(.minutes(20))
    )
    func retryUntilUnchanged() throws {
        let lines = try Self.check(
            exercise: 3,
            .patch("Lessons/03-actor-reentrancy/Exercise/WrongFixes/RetryUntilUnchanged.patch"),
            diagnosis: "concurrent"
        )
        let failure = lines.first { $0.contains("FAIL  every concurrent add asked the referee once") }
        #expect(failure?.contains("8,000 adds asked") == true, "\(lines)")
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.contains("passed the single-threaded checks") == true, "\(lines)")
        #expect(!lines.contains { $0.contains("functional checks run") })
    }

    /// A planted file of exercise 5 and the hint its failure must send the participant to.
    struct HintCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var planted: Planted
        var diagnosis: String
        var hint: Int
    }

    @Test(
        "exercise 5's failures are sent to the hint their diagnosis calls for",
        .timeLimit(.minutes(20)),
        arguments: [
            HintCase(
                testDescription: "an atomic write without the barrier: the barrier's hint",
                planted: .patch("Lessons/05-persistent-store/Exercise/WrongFixes/AtomicWriteNoBarrier.patch"),
                diagnosis: "unordered-stores",
                hint: 2
            ),
            HintCase(
                testDescription: "the starter, unordered and torn: the first hint",
                planted: .file("Lessons/05-persistent-store/Exercise/Starter/DocumentStore.swift"),
                diagnosis: "inconsistencies",
                hint: 1
            ),
        ]
    )
    func hintFollowsTheDiagnosis(_ planted: HintCase) throws {
        let lines = try Self.check(exercise: 5, planted.planted, diagnosis: planted.diagnosis)
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(
            next?.hasPrefix("Next: read hint \(planted.hint) of 4 in Lessons/05-persistent-store/Exercise/hints.md")
                == true,
            "\(lines)"
        )
    }

    @Test("exercise 5's barrier hint is marked for unordered stores and lost writes")
    func barrierHintIsMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("Lessons/05-persistent-store/Exercise/hints.md"),
            encoding: .utf8
        )
        #expect(hints.contains("## Hint 2: the barrier\n<!-- diagnosis: unordered-stores lost-writes -->"))
    }

    static let exercise2 = "Lessons/02-check-then-act/Exercise"

    @Test(
        "exercise 2: a call that returns before the work ran fails its own requirement, hint 4",
        .timeLimit(.minutes(20))
    )
    func atomicReturnsEarly() throws {
        let lines = try Self.check(
            exercise: 2,
            .patch("\(Self.exercise2)/WrongFixes/AtomicReturnsEarly.patch"),
            diagnosis: "inconsistencies"
        )
        // The work ran once in every trial: that line holds; the early returns fail a line of their own.
        #expect(lines.contains { $0.hasPrefix("  ok    ten concurrent calls run the work exactly once") })
        let failure = try #require(lines.first { $0.hasPrefix("  FAIL  ") }, "\(lines)")
        #expect(failure.hasPrefix("  FAIL  every call returns only after the work has run: "))
        // The wrapped FAIL line as one sentence.
        let text = lines.joined(separator: " ").replacing(#/ +/#, with: " ")
        #expect(text.firstMatch(of: /: [0-9,]+ of 15,000 calls returned before the work had run/) != nil)
        #expect(text.contains("The lesson's `atomic` variant returns early the same way"))
        #expect(!text.contains("inconsistent reads"))
        let samples = lines.filter { $0.hasPrefix("        e.g. ") }
        #expect(samples == ["        e.g. a call returned before the work had run"], "\(lines)")
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint 4 of 4 in \(Self.exercise2)/hints.md") == true, "\(lines)")
    }

    @Test(
        "exercise 2: duplicate executions fail the exactly-once line, grouped, and get hint 1",
        .timeLimit(.minutes(20)),
        arguments: [
            ("\(exercise2)/Starter/Once.swift", false),
            ("\(exercise2)/WrongFixes/FlagFirst.patch", true),
        ]
    )
    func duplicates(_ path: String, isPatch: Bool) throws {
        let lines = try Self.check(
            exercise: 2,
            isPatch ? .patch(path) : .file(path),
            diagnosis: "duplicates"
        )
        let failure = try #require(
            lines.first { $0.hasPrefix("  FAIL  ten concurrent calls run the work exactly once") },
            "\(lines)"
        )
        // Every count is grouped: `1,487 of 1,500`, never `1487 of 1,500`.
        let anomalous = try #require(failure.firstMatch(of: /anomalies in ([0-9,]+) of 1,500/)?.1)
        #expect(anomalous.wholeMatch(of: /[0-9]{1,3}(,[0-9]{3})*/) != nil, "\(failure)")
        let samples = lines.filter { $0.hasPrefix("        e.g. ") }
        #expect(Set(samples).count == samples.count, "\(lines)")
        let next = lines.first { $0.hasPrefix("Next:") }
        #expect(next?.hasPrefix("Next: read hint 1 of 4 in \(Self.exercise2)/hints.md") == true, "\(lines)")
    }

    @Test("exercise 2's hints are marked: duplicates get hints 1-3, an early return hint 4")
    func exercise2HintsAreMarked() throws {
        let hints = try String(
            contentsOf: Self.root.appendingPathComponent("\(Self.exercise2)/hints.md"),
            encoding: .utf8
        )
        let markers = hints.split(separator: "\n").filter { $0.hasPrefix("<!-- diagnosis: ") }
        #expect(
            markers == Array(repeating: "<!-- diagnosis: duplicates inconsistencies -->", count: 3)
                + ["<!-- diagnosis: inconsistencies -->"]
        )
        #expect(hints.contains("## Hint 4: the second promise\n<!-- diagnosis: inconsistencies -->"))
    }

    @Test(
        "the starter's lost points list every outcome, or the most frequent and a count of the rest",
        .timeLimit(.minutes(20))
    )
    func starterOutcomes() throws {
        let lines = try Self.check(
            exercise: 3,
            .file("Lessons/03-actor-reentrancy/Exercise/Starter/Scoreboard.swift"),
            diagnosis: "lost-writes"
        )
        // "anomalies in 38 of 40 trials (8,000 operations, seed …)": the trials the outcomes add up to.
        let evidence = try #require(lines.first { $0.contains("anomalies in ") })
        // The starter promises "how many points were lost": the FAIL line counts them in points.
        let text = lines.joined(separator: " ")
        #expect(text.firstMatch(of: /\); +[0-9,]+ points lost/) != nil, "\(lines)")
        #expect(!text.contains("writes lost"))
        let anomalous = try #require(
            evidence.firstMatch(of: /anomalies in ([0-9,]+) of/).flatMap { Int($0.1.replacing(",", with: "")) }
        )
        let rows = lines.compactMap { line in
            line.firstMatch(of: #/^ {8}([0-9,]+) trials?: /#).flatMap { Int($0.1.replacing(",", with: "")) }
        }
        let rest = lines.compactMap { line in
            line.firstMatch(of: #/^ {8}and ([0-9,]+) other outcomes in ([0-9,]+) trials?$/#).flatMap { match in
                Int(match.2.replacing(",", with: ""))
            }
        }
        #expect(!rows.isEmpty && rows.count + rest.count <= 6, "\(lines)")
        #expect(rows.reduce(0, +) + rest.reduce(0, +) == anomalous, "\(lines)")
        #expect(rest.count <= 1)
    }
}

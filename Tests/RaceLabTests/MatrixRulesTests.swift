import Foundation
import Testing

@testable import RaceLab

@Suite("The expectations file")
struct MatrixExpectationsTests {
    @Test("one line per variant: lesson, variant, TSan outcome, compiler outcome; comments and blanks ignored")
    func parse() throws {
        let expectations = try MatrixExpectations.parse(
            """
            # lesson        variant   tsan      compiler
            subscript-race  buggy     silent    rejected   # trailing comment

            check-then-act  buggy     reported  rejected
            check-then-act  lock      any       not-measured
            """
        )
        #expect(expectations.entries.count == 3)
        let lock = try #require(expectations.entry(lesson: "check-then-act", variant: "lock"))
        #expect(lock.tsan == .any)
        #expect(lock.compiler == .notMeasured)
        #expect(lock.line == 5)
        #expect(expectations.entry(lesson: "check-then-act", variant: "atomic") == nil)
    }

    @Test(
        "a line that cannot be read is refused with its number",
        arguments: [
            ("a b silent", "line 1: expected 4 fields (lesson variant tsan compiler), got 3"),
            ("a b loud accepted", "line 1: tsan must be one of silent, reported, any; got 'loud'"),
            ("a b silent maybe", "line 1: compiler must be one of accepted, rejected, not-measured, any; got 'maybe'"),
            ("a b silent accepted\na b reported accepted", "line 2: a b is listed twice"),
        ]
    )
    func refused(text: String, message: String) {
        #expect(throws: MatrixExpectations.FormatError.self) { try MatrixExpectations.parse(text) }
        do {
            _ = try MatrixExpectations.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a line becomes an expectation for the system of the run, its reason naming the file and line")
    func lineAsExpectation() throws {
        let entry = try #require(
            try MatrixExpectations.parse("\n\ncheck-then-act  buggy  reported  rejected").entry(
                lesson: "check-then-act",
                variant: "buggy"
            )
        )
        #expect(
            entry.toolExpectation(file: "e.txt", system: .macOS)
                == ToolExpectation(tsan: .reported, compiler: .rejected, measuredOn: .macOS, reason: "e.txt line 3")
        )
    }
}

@Suite("Expectations declared on the variants, per operating system")
struct DeclaredExpectationsTests {
    static let variant = Variant.counting(name: "v", kind: .buggy, summary: "s")

    @Test("each system's expectation is found by that system; one not declared is nil (unmeasured)")
    func perSystem() {
        let variant = Self.variant.expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "measured")
        #expect(variant.toolExpectation(on: .linux)?.tsan == .silent)
        #expect(variant.toolExpectation(on: .linux)?.reason == "measured")
        #expect(variant.toolExpectation(on: .macOS) == nil)
        #expect(variant.toolExpectation(on: nil) == nil)
        let both = variant.expecting(tsan: .reported, compiler: .rejected, on: .macOS, because: "there")
        #expect(both.toolExpectation(on: .macOS)?.tsan == .reported)
        #expect(both.toolExpectation(on: .linux)?.tsan == .silent)
    }

    @Test("the Mutex false positive is a Linux fact: declared on Linux, unmeasured on macOS")
    func calibrationIsLinux() throws {
        let mutex = try #require(ThreadSanitizerCalibration.lesson.variant(named: "mutex"))
        #expect(mutex.toolExpectation(on: .linux)?.tsan == .reported)
        #expect(mutex.toolExpectation(on: .macOS) == nil)
        #expect(
            ThreadSanitizerCalibration.lesson.variants.allSatisfy { $0.toolExpectations.map(\.measuredOn) == [.linux] }
        )
    }

    @Test("the matrix checks a row against the run's system; on a system nobody measured, the row is unmeasured")
    func matrixLookup() throws {
        let lesson = ThreadSanitizerCalibration.lesson
        let mutex = try #require(lesson.variant(named: "mutex"))
        func runner(system: ToolExpectation.OperatingSystem?, file: MatrixExpectations? = nil) -> MatrixRunner {
            MatrixRunner(
                plan: MatrixRunner.Plan(
                    tool: "racelab",
                    lessons: [lesson],
                    executable: "/bin/false",
                    sanitized: false,
                    startWithoutRandomization: false,
                    logFolder: URL(fileURLWithPath: "/tmp"),
                    probeFolder: URL(fileURLWithPath: "/tmp"),
                    swiftc: nil,
                    expectations: file,
                    expectationsFile: file == nil ? nil : "e.txt",
                    system: system,
                    seed: 1,
                    noise: false,
                    budget: 1,
                    trialCap: nil,
                    timeout: 1,
                    base: "/tmp"
                )
            )
        }
        #expect(runner(system: .linux).expectation(lesson, mutex)?.tsan == .reported)
        #expect(runner(system: .macOS).expectation(lesson, mutex) == nil)
        // A file replaces the declared expectations: a variant it does not list is unmeasured.
        let file = try MatrixExpectations.parse("tsan-calibration  atomic  silent  not-measured")
        #expect(runner(system: .linux, file: file).expectation(lesson, mutex) == nil)
    }
}

@Suite("When a matrix row counts as a failure")
struct MatrixRowRulesTests {
    static let race = SanitizerReport(
        kind: "data race",
        pid: 1,
        location: "Lessons/01-x/Fixed.swift:3:5",
        function: "X.Fixed.store",
        symbol: "$sX",
        accesses: []
    )

    func runner(_ verdict: Verdict, _ kind: VariantKind) -> MatrixRow.RunnerCell {
        MatrixRow.RunnerCell(VariantReport.stub(verdict: verdict, kind: kind))
    }

    func tsan(_ reports: [SanitizerReport]) -> MatrixRow.TSanCell {
        MatrixRow.TSanCell(
            outcome: reports.isEmpty ? .silent : .reported,
            reports: reports,
            warnings: reports.count,
            processes: 1,
            logs: [],
            failures: [],
            ranWithoutAddressRandomization: false
        )
    }

    let accepted = CompilerVerdict(
        outcome: .accepted,
        diagnostic: nil,
        diagnosticLocation: nil,
        probe: "p.swift",
        note: nil
    )

    func expecting(_ tsan: ToolExpectation.TSan, _ compiler: ToolExpectation.Compiler) -> ToolExpectation {
        ToolExpectation(tsan: tsan, compiler: compiler, measuredOn: .linux, reason: "r")
    }

    /// The problems of a `role` row whose runner gave the verdict its role calls for (reproduced for
    /// a buggy variant, clean otherwise) unless `verdict` says otherwise, and whose probe was accepted
    /// unless `compiler` says otherwise.
    func problems(
        _ role: MatrixRow.Role,
        verdict: Verdict? = nil,
        tsan: MatrixRow.TSanCell,
        compiler: CompilerVerdict? = nil,
        expectation: ToolExpectation?
    ) -> [String] {
        let kind: VariantKind = role == .buggy ? .buggy : .fixed
        return MatrixRow.problems(
            role: role,
            runner: runner(verdict ?? (role == .buggy ? .reproduced : .clean), kind),
            tsan: tsan,
            compiler: compiler ?? accepted,
            expectation: expectation
        )
    }

    @Test("a fixed variant with a TSan report fails, even when its expectation says it may be reported")
    func fixedVariantReported() {
        let found = problems(.fixed, tsan: tsan([Self.race]), expectation: expecting(.reported, .accepted))
        #expect(
            found == [
                "TSan reported 1 race in a fixed variant (first: data race at Lessons/01-x/Fixed.swift:3:5 in X.Fixed.store)"
            ]
        )
    }

    @Test("a buggy variant's report is expected or not as its expectation says, and never counted against another row")
    func buggyVariantReported() {
        #expect(
            problems(.buggy, tsan: tsan([Self.race]), expectation: expecting(.reported, .accepted)).isEmpty
        )
        #expect(
            problems(.buggy, tsan: tsan([Self.race]), expectation: nil).isEmpty
        )
        #expect(
            problems(.buggy, tsan: tsan([Self.race]), expectation: expecting(.silent, .accepted))
                == [
                    "TSan: expected silent, got 1 report (first: data race at Lessons/01-x/Fixed.swift:3:5 in X.Fixed.store)"
                ]
        )
        #expect(
            problems(.buggy, tsan: tsan([]), expectation: expecting(.reported, .accepted))
                == ["TSan: expected a report, got none"]
        )
    }

    @Test("a calibration row may be reported: that is the false positive it measures")
    func calibration() {
        #expect(
            problems(
                .calibration,
                tsan: tsan([Self.race]),
                compiler: .notMeasured("calibration"),
                expectation: expecting(.reported, .notMeasured)
            ).isEmpty
        )
    }

    @Test("the compiler's outcome must match; the runner's verdict must be the one the kind calls for")
    func compilerAndRunner() {
        let rejected = CompilerVerdict(
            outcome: .rejected,
            diagnostic: "capture of 'self'",
            diagnosticLocation: "p.swift:1:1",
            probe: "p.swift",
            note: nil
        )
        #expect(
            problems(.fixed, tsan: tsan([]), compiler: rejected, expectation: expecting(.silent, .accepted))
                == ["Swift 6 compiler: expected accepted, got rejected (capture of 'self')"]
        )
        #expect(
            problems(.fixed, tsan: tsan([]), compiler: rejected, expectation: expecting(.silent, .any)).isEmpty
        )
        let found = problems(.buggy, verdict: .notReproduced, tsan: .notMeasured, expectation: nil)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("runner: not reproduced") == true)
    }

    @Test("TSan failing to start is a failure: its silence would mean nothing")
    func tsanFailed() {
        var cell = tsan([])
        cell.outcome = .failed
        cell.failures = ["FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2"]
        #expect(
            problems(.buggy, tsan: cell, expectation: nil)
                == [
                    "TSan failed, so its silence means nothing: FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2"
                ]
        )
    }
}

extension VariantReport {
    /// A report of 10 trials × 10 iterations with the given verdict: 3 anomalous trials when it
    /// reproduced or failed, every trial an error for `.error`, every other count zero.
    static func stub(verdict: Verdict, kind: VariantKind = .fixed, name: String = "v") -> VariantReport {
        VariantReport(
            name: name,
            kind: kind,
            summary: "s",
            trials: 10,
            iterations: 10,
            operations: 100,
            anomalousTrials: verdict == .reproduced || verdict == .failed ? 3 : 0,
            errorTrials: verdict == .error ? 10 : 0,
            lostWrites: 0,
            inconsistencies: 0,
            duplicates: 0,
            errors: 0,
            histogram: [],
            samples: [],
            wallSeconds: 1,
            operationsPerSecond: 100,
            seed: 1,
            noise: true,
            firstAnomalousTrial: nil,
            secondsToFirstAnomaly: nil,
            verdict: verdict,
            verdictReason: "because"
        )
    }
}

@Suite("An unmeasured row in the matrix's text")
struct UnmeasuredRowTextTests {
    func matrix(expectation: ToolExpectation?, operatingSystem: String) -> ToolMatrix {
        let row = MatrixRow(
            lesson: 0,
            slug: "tsan-calibration",
            variant: "mutex",
            role: .calibration,
            summary: "s",
            runner: MatrixRow.RunnerCell(VariantReport.stub(verdict: .clean)),
            tsan: .notMeasured,
            compiler: .notMeasured("calibration"),
            expectation: expectation,
            problems: []
        )
        let settings = ToolMatrix.Settings(
            seed: 1,
            noise: true,
            budgetSeconds: 1,
            trialCap: nil,
            threadSanitizer: false,
            executable: "racelab",
            logFolder: nil,
            compilerCommand: nil,
            probeFolder: "Lessons",
            expectationsFile: nil,
            operatingSystem: operatingSystem
        )
        return ToolMatrix(tool: "racelab", settings: settings, rows: [row], notes: [], wallSeconds: 1)
    }

    @Test(
        "a row with no expectation for the system says unmeasured and passes; one with an expectation does not say so"
    )
    func unmeasured() {
        let text = MatrixText(matrix: matrix(expectation: nil, operatingSystem: "macos")).render()
        #expect(text.contains("    mutex (unmeasured)"))
        #expect(text.contains("(unmeasured): no TSan/compiler expectation for this variant measured on macOS"))
        #expect(text.contains("matrix: PASS, 0 rows as expected and 1 unmeasured (built-in rules only)"))
        let measured = ToolExpectation(tsan: .reported, compiler: .notMeasured, measuredOn: .linux, reason: "r")
        let linux = MatrixText(matrix: matrix(expectation: measured, operatingSystem: "linux")).render()
        #expect(!linux.contains("unmeasured"))
        #expect(linux.contains("expected as declared on each variant for Linux"))
        #expect(linux.contains("matrix: PASS, all 1 rows as expected"))
    }
}

@Suite("The matrix's text fits 100 columns")
struct MatrixTextWidthTests {
    static let sendable =
        "capture of 'self' with non-Sendable type 'PublicPropertiesDataSource' in a '@Sendable' closure"

    func row(_ variant: String, _ role: MatrixRow.Role, compiler: CompilerVerdict, problems: [String] = []) -> MatrixRow
    {
        MatrixRow(
            lesson: 6,
            slug: "async-data-source",
            variant: variant,
            role: role,
            summary: "s",
            runner: MatrixRow.RunnerCell(VariantReport.stub(verdict: role == .buggy ? .reproduced : .clean)),
            tsan: MatrixRow.TSanCell(
                outcome: .silent,
                reports: [],
                warnings: 0,
                processes: 1,
                logs: [],
                failures: [],
                ranWithoutAddressRandomization: true
            ),
            compiler: compiler,
            expectation: ToolExpectation(
                tsan: .silent,
                compiler: compiler.outcome == .rejected ? .rejected : .accepted,
                measuredOn: .linux,
                reason: "r"
            ),
            problems: problems
        )
    }

    func rejected(_ message: String) -> CompilerVerdict {
        CompilerVerdict(
            outcome: .rejected,
            diagnostic: message,
            diagnosticLocation: "p.swift:1:1",
            probe: "p.swift",
            note: nil
        )
    }

    var matrix: ToolMatrix {
        let accepted = CompilerVerdict(
            outcome: .accepted,
            diagnostic: nil,
            diagnosticLocation: nil,
            probe: nil,
            note: nil
        )
        let rows = [
            row("public-properties", .buggy, compiler: rejected(Self.sendable)),
            row("atomic-property", .buggy, compiler: rejected(Self.sendable)),
            row("update-without-barrier", .buggy, compiler: accepted),
            row(
                "state-object",
                .fixed,
                compiler: rejected("reference to captured var 'didExecute' in concurrently-executing code")
            ),
            row("sync-operations", .fixed, compiler: rejected("short")),
            row(
                "actor-state",
                .fixed,
                compiler: accepted,
                problems: [
                    "Swift 6 compiler: expected rejected, got accepted; the declared reason is a long sentence that goes on"
                ]
            ),
        ]
        let settings = ToolMatrix.Settings(
            seed: 1_234_567_890,
            noise: true,
            budgetSeconds: 20,
            trialCap: nil,
            threadSanitizer: true,
            executable: ".build-tsan/debug/racelab",
            logFolder: "/work/a/checkout/.build-tsan/tsan-logs",
            compilerCommand: "/usr/bin/swiftc -swift-version 6 -strict-concurrency=complete -typecheck",
            probeFolder: "/work/a/checkout/Lessons",
            expectationsFile: nil,
            operatingSystem: "linux"
        )
        return ToolMatrix(
            tool: "racelab",
            settings: settings,
            rows: rows,
            notes: ["a note long enough to wrap, since a note says what it says in as many words as it needs"],
            wallSeconds: 1
        )
    }

    @Test("no line is wider than 100 columns; wrapped lines are indented; nothing is cut off")
    func width() {
        let text = MatrixText(matrix: matrix).render()
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for line in lines { #expect(line.count <= 100, "\(line.count) columns: \(line)") }
        #expect(!text.contains("…"))
        // Every word of a long line is still there, in order, once its continuations are joined.
        let joined = text.replacing(#/\n +/#, with: " ")
        #expect(joined.contains("(a) " + Self.sendable))
        #expect(
            joined.contains("TSan silent and the article's code accepted by the compiler: update-without-barrier (6)")
        )
        #expect(joined.contains("a rejection can be for Sendable, not for the race"))
        // Spaces that align columns and labels are kept.
        #expect(text.contains("\nrunner   each variant in its own process"))
        #expect(lines.contains { $0.hasPrefix("  LESSON / VARIANT      ") && $0.hasSuffix("  SWIFT 6") })
        #expect(
            joined.contains("✗ lesson 6 async-data-source · actor-state [fixed]: Swift 6 compiler: expected rejected")
        )
        // One message, one note, however many rows it is on; a short one stays in its row.
        #expect(lines.filter { $0.hasSuffix("rejected (a)") }.count == 2)
        #expect(joined.contains("(b) reference to captured var 'didExecute' in concurrently-executing code"))
        #expect(lines.contains { $0.hasSuffix("  rejected: short") })
    }

    @Test("the text ends its last line, so a line written after it on stderr starts a line of its own")
    func endsWithNewline() {
        let text = MatrixText(matrix: matrix).render()
        #expect(text.hasSuffix("\n"))
        #expect(!text.hasSuffix("\n\n"))
    }

    @Test("wrap cuts at spaces, keeps the indent, and leaves a word longer than a line whole")
    func wrap() {
        #expect(MatrixText.wrap("short", width: 10) == ["short"])
        #expect(MatrixText.wrap("  aaa bbb ccc ddd", width: 10) == ["  aaa bbb", "      ccc", "      ddd"])
        #expect(MatrixText.wrap("x " + String(repeating: "p", count: 12), width: 10) == ["x", "    pppppppppppp"])
        #expect(MatrixText.wrap("label    aaa bbb", width: 12, indent: "  ") == ["label    aaa", "  bbb"])
        #expect(MatrixText.wrap("a  b  c", width: 5) == ["a  b", "    c"])
    }
}

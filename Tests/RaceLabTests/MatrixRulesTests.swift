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

    @Test("the committed file reads, and lists each variant once")
    func committedFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Matrix/expectations.txt"), encoding: .utf8)
        let expectations = try MatrixExpectations.parse(text)
        #expect(expectations.entry(lesson: "check-then-act", variant: "buggy")?.tsan == .reported)
        #expect(expectations.entry(lesson: "subscript-race", variant: "buggy")?.tsan == .silent)
        #expect(expectations.entry(lesson: "tsan-calibration", variant: "mutex")?.tsan == .reported)
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

    func expecting(
        _ tsan: MatrixExpectations.Entry.TSan,
        _ compiler: MatrixExpectations.Entry.Compiler
    ) -> MatrixExpectations.Entry {
        .init(lesson: "x", variant: "v", tsan: tsan, compiler: compiler, line: 1)
    }

    @Test("a fixed variant with a TSan report fails, even when the expectations file says it may be reported")
    func fixedVariantReported() {
        let problems = MatrixRow.problems(
            role: .fixed,
            runner: runner(.clean, .fixed),
            tsan: tsan([Self.race]),
            compiler: accepted,
            expectation: expecting(.reported, .accepted)
        )
        #expect(
            problems == [
                "TSan reported 1 race in a fixed variant (first: data race at Lessons/01-x/Fixed.swift:3:5 in X.Fixed.store)"
            ]
        )
    }

    @Test("a buggy variant's report is expected or not as the file says, and never counted against another row")
    func buggyVariantReported() {
        #expect(
            MatrixRow.problems(
                role: .buggy,
                runner: runner(.reproduced, .buggy),
                tsan: tsan([Self.race]),
                compiler: accepted,
                expectation: expecting(.reported, .accepted)
            ).isEmpty
        )
        #expect(
            MatrixRow.problems(
                role: .buggy,
                runner: runner(.reproduced, .buggy),
                tsan: tsan([Self.race]),
                compiler: accepted,
                expectation: nil
            ).isEmpty
        )
        #expect(
            MatrixRow.problems(
                role: .buggy,
                runner: runner(.reproduced, .buggy),
                tsan: tsan([Self.race]),
                compiler: accepted,
                expectation: expecting(.silent, .accepted)
            )
                == [
                    "TSan: expected silent, got 1 report (first: data race at Lessons/01-x/Fixed.swift:3:5 in X.Fixed.store)"
                ]
        )
        #expect(
            MatrixRow.problems(
                role: .buggy,
                runner: runner(.reproduced, .buggy),
                tsan: tsan([]),
                compiler: accepted,
                expectation: expecting(.reported, .accepted)
            )
                == ["TSan: expected a report, got none"]
        )
    }

    @Test("a calibration row may be reported: that is the false positive it measures")
    func calibration() {
        #expect(
            MatrixRow.problems(
                role: .calibration,
                runner: runner(.clean, .fixed),
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
            MatrixRow.problems(
                role: .fixed,
                runner: runner(.clean, .fixed),
                tsan: tsan([]),
                compiler: rejected,
                expectation: expecting(.silent, .accepted)
            )
                == ["Swift 6 compiler: expected accepted, got rejected (capture of 'self')"]
        )
        #expect(
            MatrixRow.problems(
                role: .fixed,
                runner: runner(.clean, .fixed),
                tsan: tsan([]),
                compiler: rejected,
                expectation: expecting(.silent, .any)
            ).isEmpty
        )
        let problems = MatrixRow.problems(
            role: .buggy,
            runner: runner(.notReproduced, .buggy),
            tsan: .notMeasured,
            compiler: accepted,
            expectation: nil
        )
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("runner: not reproduced") == true)
    }

    @Test("TSan failing to start is a failure: its silence would mean nothing")
    func tsanFailed() {
        var cell = tsan([])
        cell.outcome = .failed
        cell.failures = ["FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2"]
        #expect(
            MatrixRow.problems(
                role: .buggy,
                runner: runner(.reproduced, .buggy),
                tsan: cell,
                compiler: accepted,
                expectation: nil
            )
                == [
                    "TSan failed, so its silence means nothing: FATAL: ThreadSanitizer: unexpected memory mapping 0x1-0x2"
                ]
        )
    }
}

extension VariantReport {
    /// A report with every count zero and the given verdict.
    static func stub(verdict: Verdict, kind: VariantKind = .fixed) -> VariantReport {
        VariantReport(
            name: "v",
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
            crashed: false,
            signal: nil,
            exitStatus: nil,
            timedOut: false,
            timeoutSeconds: nil,
            stderrTail: [],
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

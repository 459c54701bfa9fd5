import Foundation
import Testing

@testable import RaceLab

@Suite("Observations turn counts into anomalies and histogram outcomes")
struct ObservationTests {
    @Test("kept: expected minus observed writes are lost")
    func keptCountsLostWrites() {
        let observation = Observation.kept(517, of: 1_000, unit: "keys")
        #expect(observation.lostWrites == 483)
        #expect(observation.outcome == "500–599/1,000")
        #expect(observation.isAnomalous)
    }

    @Test("kept: a group's meaning names the outcome's range, in the same order and the same terms")
    func keptMeaningMatchesOutcome() throws {
        for observed in [0, 99, 400, 517, 999] {
            let observation = Observation.kept(observed, of: 1_000, unit: "keys")
            let range = try #require(observation.outcome.split(separator: "/").first)
            #expect(observation.meaning == "\(range) of 1,000 keys kept, the others lost")
        }
        #expect(Observation.kept(6, of: 8).meaning == "2 writes lost")
    }

    @Test("a histogram lists outcomes in their order, from the correct one outwards, never by frequency")
    func histogramRowsInOutcomeOrder() {
        var histogram = HistogramBuilder()
        // The rarest outcomes come first and the most frequent last, so an order by frequency fails.
        let kept =
            [1_000, 517] + Array(repeating: 150, count: 2) + Array(repeating: 400, count: 3)
            + Array(repeating: 450, count: 4)
        for observed in kept {
            let observation = Observation.kept(observed, of: 1_000, unit: "keys")
            histogram.add(
                outcome: observation.outcome,
                expectation: observation.isAnomalous ? .forbidden : .acceptable,
                meaning: observation.meaning,
                distance: abs(observation.observed - observation.expected)
            )
        }
        histogram.add(outcome: "setup failed", expectation: .error, meaning: "no file", distance: 0)
        let rows = histogram.rows(trials: kept.count + 1)
        #expect(
            rows.map(\.outcome) == ["1,000/1,000", "500–599/1,000", "400–499/1,000", "100–199/1,000", "setup failed"]
        )
        #expect(rows.map(\.samples) == [1, 1, 7, 2, 1])
    }

    @Test("a histogram lists executions from the intended count outwards")
    func executionsHistogramOrder() {
        var histogram = HistogramBuilder()
        for observed in [3, 3, 3, 2, 2, 0, 1] {
            let observation = Observation.executions(observed)
            histogram.add(
                outcome: observation.outcome,
                expectation: observation.isAnomalous ? .forbidden : .acceptable,
                meaning: observation.meaning,
                distance: abs(observation.observed - observation.expected)
            )
        }
        #expect(
            histogram.rows(trials: 7).map(\.outcome) == ["1 execution", "0 executions", "2 executions", "3 executions"]
        )
    }

    @Test("kept: small counts are their own outcomes")
    func keptSmallCounts() {
        #expect(Observation.kept(7, of: 10).outcome == "7/10")
        #expect(Observation.kept(10, of: 10).outcome == "10/10")
        #expect(!Observation.kept(10, of: 10).isAnomalous)
    }

    @Test("kept: the complete outcome is never grouped with a loss")
    func completeOutcomeStandsAlone() {
        #expect(Observation.kept(999, of: 1_000).outcome == "900–999/1,000")
        #expect(Observation.kept(1_000, of: 1_000).outcome == "1,000/1,000")
    }

    @Test("executions: each extra execution is a duplicate")
    func executionsCountDuplicates() {
        let twice = Observation.executions(3)
        #expect(twice.duplicates == 2)
        #expect(twice.outcome == "3 executions")
        #expect(Observation.executions(1).outcome == "1 execution")
        #expect(!Observation.executions(1).isAnomalous)
        #expect(Observation.executions(0).lostWrites == 1)
    }

    @Test("bands cover 0 ..< total in ten contiguous tenths", arguments: [10, 37, 100, 1_000, 1_001])
    func bandsAreContiguous(total: Int) {
        var next = 0
        var value = 0
        while value < total {
            let band = Band.containing(value, of: total)
            #expect(band.lower == next)
            #expect(band.lower <= value && value <= band.upper)
            next = band.upper + 1
            value = next
        }
        #expect(next == total)
    }
}

@Suite("Verdicts and histograms")
struct VerdictTests {
    @Test("a buggy variant is reproduced by any anomalous trial; a fixed one fails by any")
    func verdicts() {
        #expect(Verdict.judging(.buggy, anomalousTrials: 1) == .reproduced)
        #expect(Verdict.judging(.buggy, anomalousTrials: 0) == .notReproduced)
        #expect(Verdict.judging(.fixed, anomalousTrials: 0) == .clean)
        #expect(Verdict.judging(.fixed, anomalousTrials: 1) == .failed)
        // Errors never make evidence, and never let a run pass either.
        #expect(Verdict.judging(.buggy, anomalousTrials: 0, errorTrials: 1) == .error)
        #expect(Verdict.judging(.fixed, anomalousTrials: 0, errorTrials: 1) == .error)
        #expect(Verdict.judging(.buggy, anomalousTrials: 1, errorTrials: 1) == .reproduced)
        #expect(Verdict.judging(.fixed, anomalousTrials: 1, errorTrials: 1) == .failed)
        #expect(!Verdict.error.isExpected(for: .buggy) && !Verdict.error.isExpected(for: .fixed))
    }

    @Test("only reproduced passes for buggy, only clean for fixed")
    func expectedVerdicts() {
        let all: [Verdict] = [.reproduced, .notReproduced, .clean, .failed, .crashed, .timedOut]
        #expect(all.filter { $0.isExpected(for: .buggy) } == [.reproduced])
        #expect(all.filter { $0.isExpected(for: .fixed) } == [.clean])
    }

    @Test("histogram rows: acceptable first, then forbidden, with frequencies over all trials")
    func histogramOrder() {
        var builder = HistogramBuilder()
        for _ in 0..<3 { builder.add(outcome: "2 executions", expectation: .forbidden, meaning: "1 duplicate") }
        for _ in 0..<6 { builder.add(outcome: "1 execution", expectation: .acceptable, meaning: "as intended") }
        builder.add(outcome: "3 executions", expectation: .forbidden, meaning: "2 duplicates")
        let rows = builder.rows(trials: 10)
        #expect(rows.map(\.outcome) == ["1 execution", "2 executions", "3 executions"])
        #expect(rows.map(\.samples) == [6, 3, 1])
        #expect(rows.map(\.frequency) == [0.6, 0.3, 0.1])
        #expect(rows.map(\.expectation) == [.acceptable, .forbidden, .forbidden])
    }
}

@Suite("Errors read as one line: what failed, the system's reason, the errno")
struct ErrorDescriptionTests {
    @Test("a Foundation file error names the file, the POSIX reason and the errno")
    func foundationFileError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-no-such-\(UUID())")
        let error = try #require(throws: (any Error).self) {
            try Data([1]).write(to: folder.appendingPathComponent("file"))
        }
        let line = describeError(error)
        #expect(line.contains("(errno \(ENOENT))"), "\(line)")
        #expect(line.contains("file"), "\(line)")
        #expect(!line.contains("UserInfo"), "\(line)")
    }

    @Test("a POSIXError is its reason and errno")
    func posixError() {
        #expect(describeError(POSIXError(.ENOSPC)) == "No space left on device (errno \(ENOSPC))")
    }
}

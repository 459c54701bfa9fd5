import Foundation
import Testing

@testable import RaceLab

@Suite("The text histogram keeps one layout and outcome order")
struct HistogramLayoutTests {
    static func row(_ outcome: String, _ meaning: String, _ expectation: HistogramRow.Expectation) -> HistogramRow {
        HistogramRow(outcome: outcome, samples: 5, frequency: 0.5, expectation: expectation, meaning: meaning)
    }

    @Test("short and long meanings print under the same header, the long ones wrapped in their column")
    func oneLayout() throws {
        let short = [Self.row("consistent", "every update kept", .acceptable)]
        let long = [
            Self.row("consistent", "every applied update kept, no removed item back", .acceptable),
            Self.row(
                "lost writes + inconsistencies",
                "a stale copy brought back removed items and dropped newer updates",
                .forbidden
            ),
        ]
        let report = TextReport(verbose: true)
        let (shortLines, longLines) = (report.histogram(short, width: 96), report.histogram(long, width: 96))
        let header = { (line: String) in line.split(separator: " ").map(String.init) }
        #expect(header(shortLines[0]) == ["OUTCOME", "TRIALS", "FREQ", "EXPECT", "MEANING"])
        #expect(header(longLines[0]) == header(shortLines[0]))
        #expect(longLines.allSatisfy { $0.count <= 96 })
        // Each wrapped meaning goes on in the MEANING column.
        let column = try #require(longLines[0].range(of: "MEANING")).lowerBound.utf16Offset(in: longLines[0])
        let continued = longLines.dropFirst().filter { $0.hasPrefix(" ") }
        #expect(!continued.isEmpty)
        #expect(continued.allSatisfy { $0.prefix { $0 == " " }.count == column })
    }

    @Test("a long outcome wraps in its own column, so its histogram keeps meanings in theirs, as every other does")
    func longOutcomeWrapsInItsColumn() throws {
        let rows = [
            Self.row(
                "overlap: same owner, costly claims · 800–899/1,000",
                "the counter ended at 800–899 of the trial's 1,000 increments, the rest lost to overlaps",
                .forbidden
            ),
            Self.row("no overlap · 1,000/1,000", "all increments kept, one claim at a time", .acceptable),
        ]
        let report = TextReport(verbose: true)
        for width in [96, 80] {
            let lines = report.histogram(rows, width: width)
            #expect(lines.allSatisfy { $0.count <= width }, "\(lines)")
            // No row puts its meaning on the lines below it: every one starts in the MEANING column.
            #expect(!lines.contains { $0.contains("→") }, "\(lines)")
            let column = try #require(lines[0].range(of: "MEANING")).lowerBound.utf16Offset(in: lines[0])
            #expect(width - column >= TextReport.minimumMeaningWidth, "\(lines)")
            for row in rows {
                let first = lines.firstIndex { $0.hasPrefix(String(row.outcome.prefix(12))) }
                let meaning = first.map { lines[$0].dropFirst(column) }
                #expect(meaning?.hasPrefix(row.meaning.prefix(12)) == true, "\(lines)")
            }
            // The outcome's pieces, read down its column, are the outcome.
            let pieces = lines.dropFirst().map { line in
                line.prefix(column).components(separatedBy: "  ")[0].trimmingCharacters(in: .whitespaces)
            }
            #expect(pieces.filter { !$0.isEmpty }.joined(separator: " ") == rows.map(\.outcome).joined(separator: " "))
        }
        // Too narrow for a MEANING column at all: every row puts its meaning below it, none in column.
        let narrow = report.histogram(rows, width: 56)
        #expect(narrow.filter { $0.hasPrefix("  → ") }.count == rows.count, "\(narrow)")
        #expect(!narrow[0].contains("MEANING") && narrow.allSatisfy { $0.count <= 56 }, "\(narrow)")
    }

    @Test("an observation's rank orders the rows, ahead of the distance from the expected result")
    func rankOrdersRows() async {
        // Even trials lose one write of 10 ("lost", rank 1); odd ones lose none but fail otherwise
        // ("both", rank 3). By distance alone, "both" (0 off) would come before "lost" (1 off).
        let variant = Variant(
            name: "ranked",
            kind: .buggy,
            summary: "outcomes ranked as kinds",
            makeState: { 0 },
            operation: { _, _ in },
            check: { _, info in
                var observation =
                    info.trial % 2 == 0
                    ? Observation(expected: 10, observed: 9, lostWrites: 1, outcome: "lost", meaning: "one lost")
                    : Observation(expected: 10, observed: 10, inconsistencies: 1, outcome: "both", meaning: "bad")
                observation.rank = info.trial % 2 == 0 ? 1 : 3
                return observation
            }
        )
        let report = await StressRunner.run(variant, options: .trials(4, iterations: 1))
        #expect(report.histogram.map(\.outcome) == ["lost", "both"])
    }

    /// A buggy variant whose trials end in ranked outcomes, `outcomes[trial]` each (rank = index in
    /// `ranks`, mildest first).
    static func scattered(_ outcomes: [String], ranks: [String]) -> Variant {
        Variant(
            name: "scattered",
            kind: .buggy,
            summary: "outcomes of several kinds",
            makeState: { 0 },
            operation: { _, _ in },
            check: { _, info in
                let outcome = outcomes[info.trial % outcomes.count]
                var observation = Observation(
                    expected: 10,
                    observed: 9,
                    lostWrites: 1,
                    outcome: outcome,
                    meaning: "damage of kind \(outcome)"
                )
                observation.rank = ranks.firstIndex(of: outcome)
                return observation
            }
        )
    }

    @Test("the compact lines name the most frequent anomaly, or the worst seen when none covers a third")
    func mostOftenOrWorstSeen() async {
        let ranks = ["mild", "middle", "severe", "worst"]
        let text = TextReport()
        // Mostly mild: the most frequent outcome covers 6 of 8 trials, and the line says so.
        let mostly = await StressRunner.run(
            Self.scattered(["mild", "mild", "mild", "severe"], ranks: ranks),
            options: .trials(8, iterations: 1)
        )
        let mostlyText = text.compactVariant(mostly)
        #expect(mostlyText.contains("most often (6 of those 8): mild → damage of kind mild"), "\(mostlyText)")
        // Scattered: no outcome covers a third of 8 (each 2): the line leads with the worst seen.
        let scattered = await StressRunner.run(
            Self.scattered(["mild", "middle", "severe", "worst"], ranks: ranks),
            options: .trials(8, iterations: 1)
        )
        let scatteredText = text.compactVariant(scattered)
        #expect(scatteredText.contains("worst seen (2 of those 8): worst → damage of kind worst"), "\(scatteredText)")
        #expect(!scatteredText.contains("most often"), "\(scatteredText)")
    }

    @Test("when the bug showed in only some trials, the compact line says what the others ended with")
    func otherTrialsNamed() async {
        // Trials 0 and 4 of 8 keep all 10 (acceptable), the others lose one.
        func variant(clean: Set<Int>) -> Variant {
            Variant(
                name: "sometimes",
                kind: .buggy,
                summary: "loses one in some trials",
                makeState: { 0 },
                operation: { _, _ in },
                check: { _, info in
                    clean.contains(info.trial)
                        ? Observation(expected: 10, observed: 10, outcome: "all kept", meaning: "every write kept")
                        : Observation(
                            expected: 10,
                            observed: 9,
                            lostWrites: 1,
                            outcome: "lost",
                            meaning: "one write lost"
                        )
                }
            )
        }
        let text = TextReport()
        let some = await StressRunner.run(variant(clean: [0, 4]), options: .trials(8, iterations: 1))
        let someText = text.compactVariant(some)
        #expect(someText.contains("REPRODUCED in 6 of 8 trials"), "\(someText)")
        #expect(
            someText.contains("all 6 of them: lost → one write lost; in the other 2 of 8 trials: all kept"),
            "\(someText)"
        )
        // Every trial showed it: nothing else to say.
        let every = await StressRunner.run(variant(clean: []), options: .trials(8, iterations: 1))
        let everyText = text.compactVariant(every)
        #expect(everyText.contains("all 8 of them: lost → one write lost\n"), "\(everyText)")
        #expect(!everyText.contains("the other"), "\(everyText)")
    }
}

import Testing

@testable import RaceLab

@Suite("A lesson's count legend: what the counts on its variants' lines count")
struct CountLegendTests {
    static let meanings = [
        "lost writes": "stores whose version is not in the file at the end",
        "duplicates": "tasks that ran twice",
        "inconsistencies": "reads that found a torn file",
    ]

    @Test("only the counts some variant counted, in the report's order, under one heading")
    func countedOnly() {
        var lost = VariantReport.stub(verdict: .reproduced, kind: .buggy, name: "a")
        lost.lostWrites = 7
        var torn = VariantReport.stub(verdict: .reproduced, kind: .buggy, name: "b")
        torn.inconsistencies = 3
        let legend = TextReport(verbose: false).countLegend(
            Self.meanings,
            reports: [torn, lost, .stub(verdict: .clean)]
        )
        #expect(
            legend == """
                what the counts count (mean per trial = total ÷ trials that ran without an error):
                  lost writes: stores whose version is not in the file at the end
                  inconsistencies: reads that found a torn file
                  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

                """
        )
    }

    @Test("the means follow the legend's rule: whole from 10, two decimals below, never 0.00 for some")
    func meansFollowTheRule() {
        #expect(perTrialFigure(2_455, trials: 5) == "491")
        #expect(perTrialFigure(150, trials: 1_500) == "0.10")
        #expect(perTrialFigure(0, trials: 1_500) == "0.00")
        #expect(perTrialFigure(1, trials: 1_500) == "<0.01")
        #expect(perTrialFigure(1, trials: 200) == "0.01")
    }

    @Test("nothing counted, or nothing the lesson explains: no legend")
    func nothingToSay() {
        var lost = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        lost.lostWrites = 7
        #expect(TextReport(verbose: false).countLegend(Self.meanings, reports: [.stub(verdict: .clean)]).isEmpty)
        #expect(TextReport().countLegend([:], reports: [lost]).isEmpty)
    }

    @Test("a long meaning wraps within the report's width, under its name")
    func wraps() {
        var lost = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        lost.lostWrites = 1
        let meaning = Array(repeating: "stores that reported success", count: 6).joined(separator: ", ")
        let lines = TextReport().countLegend(["lost writes": meaning], reports: [lost]).split(separator: "\n")
        #expect(lines.count > 2)
        #expect(lines.allSatisfy { $0.count <= reportWidth })
        #expect(lines.dropFirst(2).dropLast().allSatisfy { $0.hasPrefix("    ") })
        #expect(lines.last == "  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)")
    }

    @Test("a meaning of several lines prints each on a line of its own under the name")
    func linePerFamily() {
        var lost = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        lost.lostWrites = 1
        let meaning = "protected-*: increments missing\nrun-once variants: always 0 (not counted)"
        #expect(
            TextReport().countLegend(["lost writes": meaning], reports: [lost]) == """
                what the counts count (mean per trial = total ÷ trials that ran without an error):
                  lost writes:
                    protected-*: increments missing
                    run-once variants: always 0 (not counted)
                  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

                """
        )
    }

    @Test("a verbose block shows the counts its lesson measures, and any other only when not zero")
    func verboseShowsMeasuredCounts() {
        var report = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        report.lostWrites = 20
        report.duplicates = 3
        func counts(_ measured: Set<String>?) -> [String] {
            let names = ["lost writes", "duplicates", "inconsistencies"]
            return TextReport(verbose: true).variant(report, counts: measured).split(separator: "\n").map(String.init)
                .filter { line in names.contains { line.hasPrefix("  " + $0) } }
        }
        #expect(
            counts(["lost writes", "inconsistencies"]) == [
                "  lost writes       20 total, 2.00 per trial", "  duplicates        3 total, 0.30 per trial",
                "  inconsistencies   0 total, 0.00 per trial",
            ]
        )
        #expect(
            counts(["lost writes"]) == [
                "  lost writes       20 total, 2.00 per trial", "  duplicates        3 total, 0.30 per trial",
            ]
        )
        #expect(counts(nil).count == 3)
    }

    @Test("a verbose block's zero rows are in the legend too: every row it prints is explained")
    func verboseZerosExplained() {
        var lost = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        lost.lostWrites = 7
        let clean = VariantReport.stub(verdict: .clean)
        for counts: Set<String>? in [nil, ["lost writes", "inconsistencies"], ["duplicates"]] {
            for reports in [[clean], [lost, clean]] {
                let text = TextReport(verbose: true)
                let rows = reports.flatMap { report in
                    text.variant(report, counts: counts).split(separator: "\n").compactMap { line in
                        TextReport.countNames.first { line.hasPrefix("  \($0) ") }
                    }
                }
                let legend = text.countLegend(Self.meanings, reports: reports, counts: counts)
                #expect(!rows.isEmpty)
                for name in rows { #expect(legend.contains("  \(name): \(Self.meanings[name]!)"), "\(legend)") }
            }
        }
        // Compact, a clean variant prints no count and gets no legend.
        #expect(TextReport(verbose: false).countLegend(Self.meanings, reports: [clean], counts: nil).isEmpty)
    }

    @Test("a lesson's own word for a count replaces its name on the compact line, the block and the legend")
    func lessonLabels() {
        var report = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        report.lostWrites = 20
        report.inconsistencies = 30
        for verbose in [false, true] {
            let text = TextReport(verbose: verbose, countLabels: ["inconsistencies": "overlaps"])
            let shown =
                text.variant(report, counts: ["lost writes", "inconsistencies"])
                + text.countLegend(Self.meanings, reports: [report], counts: ["lost writes", "inconsistencies"])
            #expect(shown.contains(verbose ? "  overlaps          30 total" : "3.00 overlaps"), "\(shown)")
            #expect(shown.contains("  overlaps: reads that found a torn file"), "\(shown)")
            #expect(!shown.contains("inconsistencies"), "\(shown)")
            // A count without a label keeps its name.
            #expect(shown.contains("lost writes"), "\(shown)")
        }
    }
}

import Foundation
import Testing

/// Lesson 2 counts different things under the report's three names, one family of variants each:
/// the legend under its variants says which.
@Suite("run 2's legend says what each count counts, per family of variants")
struct CheckThenActLegendTests {
    @Test("a protected counter's lost writes are increments; the legend names the family")
    func protectedCounterLegend() async throws {
        // The read-then-write loses increments in every trial (hundreds of 1,000), so two trials
        // always count lost writes, and the legend says what they are.
        let output = try await Executable.racelab.run(
            "run",
            "2",
            "--trials",
            "2",
            "--variant",
            "protected-read-then-write"
        )
        #expect(output.status == 0, "stderr: \(output.stderr)")
        // One line per family under the count's name, the families that count it first: on a
        // projector each line says what one number means.
        #expect(
            output.stdout.contains(
                """
                what the counts count (mean per trial = total ÷ trials that ran without an error):
                  lost writes:
                    protected-*: increments missing from the final count
                    errors-*: errors the completion never saw (of 200: one fetch in three fails)
                    run-once variants: always 0 (not counted)
                  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)

                """
            ),
            "\(output.stdout)"
        )
        // Only the counts the run counted are explained: this variant duplicates nothing.
        #expect(!output.stdout.contains("  duplicates:"), "\(output.stdout)")
    }

    @Test("verbose, every count row of every variant, zeros included, is explained by the legend")
    func verboseRowsExplained() async throws {
        // Fixed variants count nothing, yet their blocks print all three counts at zero.
        let output = try await Executable.racelab.run("run", "2", "--trials", "2", "--verbose")
        #expect(output.status == 0 || output.status == 1, "stderr: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let names = ["lost writes", "duplicates", "inconsistencies"]
        let variants = lines.filter { $0.hasPrefix("▸ ") }
        #expect(variants.count >= 8, "\(output.stdout)")
        let rows = lines.compactMap { line in names.first { line.hasPrefix("  \($0) ") && line.contains(" total, ") } }
        // Each measured variant's block prints all three, so a fixed variant's zeros are among them.
        // Under TSan a racy variant's process exits 66 on its report: its block has no counts.
        let measured = lines.filter { $0.hasPrefix("  anomalous trials ") }.count
        #expect(measured == variants.count || racelabIsSanitized, "\(output.stdout)")
        #expect(measured >= 6, "\(output.stdout)")
        #expect(rows.count == 3 * measured, "\(output.stdout)")
        for name in Set(rows) {
            #expect(
                lines.contains { $0 == "  \(name):" || $0.hasPrefix("  \(name): ") },
                "no legend for \(name): \(output.stdout)"
            )
        }
        // Each row is explained for the family of the variant it is printed under: the legend's entry
        // for that count names the family (a run-once variant's lost writes, too).
        let text = lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        var family = ""
        // An entry runs up to the next entry or the rounding note.
        let next = "(?= (lost writes|duplicates|inconsistencies): | \\(a mean)"
        for line in lines {
            if line.hasPrefix("▸ ") {
                let name = line.dropFirst(2).prefix { $0 != " " }
                family =
                    name.hasPrefix("protected-") ? "protected-*" : name.hasPrefix("errors-") ? "errors-*" : "run-once"
            }
            guard let name = names.first(where: { line.hasPrefix("  \($0) ") && line.contains(" total, ") }),
                let entry = text.firstMatch(of: try Regex("\(name): (.*?)\(next)"))
            else { continue }
            #expect(entry.output[1].substring?.contains(family) == true, "\(name) under a \(family) variant: \(text)")
        }
    }
}

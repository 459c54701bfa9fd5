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
        let text = output.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        #expect(text.contains("what the counts count (mean per trial"), "\(output.stdout)")
        #expect(
            text.contains(
                "lost writes: protected-*: increments missing from the final count; errors-*: failed "
                    + "fetches whose error the completion never saw"
            ),
            "\(output.stdout)"
        )
        // Only the counts the run counted are explained: this variant duplicates nothing.
        #expect(!text.contains("duplicates: run-once variants"), "\(output.stdout)")
    }
}

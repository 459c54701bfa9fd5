import Foundation
import RaceLab

extension RaceLabTool {
    /// `racelab power`: prints what `PowerMeasurement` measures, lesson by lesson, as a table or as
    /// one JSON document. Exit status 0 when every measurement completed, 1 when one crashed or
    /// timed out.
    func power(_ request: PowerRequest) -> ExitCode {
        ChildProcess.installInterruptHandler()
        let seed = request.selection.seedOrNew
        var measured: [PowerReport.LessonPower] = []
        for number in request.selection.lessons {
            guard let lesson = lessons.first(where: { $0.number == number }) else { continue }
            if !request.json {
                print("RaceLab power · lesson \(lesson.number): \(lesson.title)")
                print(
                    "seed \(seed) · runner strategies run the same workload in their own processes; explorer strategies"
                        + " run as many schedules as the runner runs trials · 95% Wilson intervals\n"
                )
            }
            let power = PowerMeasurement.measure(
                lesson,
                variant: request.selection.variant,
                trials: request.selection.trials,
                iterations: request.selection.iterations,
                seed: seed,
                timeout: request.selection.timeout
            )
            measured.append(power)
            if !request.json {
                print(PowerTable(rates: power.rates).render())
                if power.rates.isEmpty { print("(lesson \(lesson.number) has no buggy variant to measure)\n") }
            }
        }
        let completed: ExitCode = measured.allSatisfy(\.completed) ? .success : .unexpectedVerdict
        guard request.json else { return completed }
        let printed = printJSON(PowerReport(tool: name, seed: seed, lessons: measured), what: "report")
        return printed == .success ? completed : printed
    }
}

/// The terminal table of `racelab power`.
struct PowerTable {
    let rates: [DetectionRate]

    func render() -> String {
        let header = ["VARIANT", "STRATEGY", "EXPOSED", "P(PER TRIAL)", "95% CI", "FIRST AT", "TIME TO FIRST"]
        var rows = [header]
        for rate in rates {
            guard rate.completed else {
                rows.append([rate.variant, rate.strategy, rate.verdict.label, "", "", "", ""])
                continue
            }
            rows.append([
                rate.variant, rate.strategy,
                "\(grouped(rate.exposedTrials))/\(grouped(rate.trials))",
                percentage(rate.probability),
                "\(percentage(rate.confidenceInterval[0]))–\(percentage(rate.confidenceInterval[1]))",
                rate.firstExposureTrial.map {
                    "\(rate.strategy.hasPrefix("explorer") ? "schedule" : "trial") \(grouped($0))"
                }
                    ?? "never",
                rate.secondsToFirstExposure.map { String(format: "%.3f s", $0) } ?? "–",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            row.enumerated().map { column, text in
                text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }
        // A runner run that reached no window ran the same code with noise on and off.
        var unmarked: [String] = []
        for rate in rates where rate.windowsReached == 0 && !unmarked.contains(rate.variant) {
            unmarked.append(rate.variant)
        }
        let notes = unmarked.map { "\($0): \(VariantReport.noWindowReached)" }
        return (table + notes).joined(separator: "\n") + "\n"
    }

    /// Percentages with enough digits for rare bugs: `0.05%`, `26.3%`.
    private func percentage(_ fraction: Double) -> String {
        let value = fraction * 100
        return value > 0 && value < 1 ? String(format: "%.2f%%", value) : String(format: "%.1f%%", value)
    }
}

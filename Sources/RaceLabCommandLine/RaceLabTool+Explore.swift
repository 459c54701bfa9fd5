import Foundation
import RaceLab

/// `explore`: run a lesson's variants under the schedule explorer and print the failing schedule.
extension RaceLabTool {
    func explore(_ request: ExploreRequest) -> ExitCode {
        guard let lesson = lessons.first(where: { $0.number == request.lesson }) else { return .usage }
        let variants = lesson.variants.filter { variant in
            variant.exploration != nil && (request.variant == nil || request.variant == variant.name)
        }
        var entries: [VariantExploration] = []
        for variant in variants {
            do {
                guard let entry = try VariantExploration.run(variant, options: request.options, replay: request.replay),
                    let exploration = variant.exploration
                else { continue }
                entries.append(entry)
                if !request.json { print(entry.text(tool: name, lesson: lesson, exploration: exploration)) }
            } catch {
                printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
                return .unexpectedVerdict
            }
        }
        if request.json {
            let document = ExploreDocument(tool: name, lesson: lesson.number, slug: lesson.slug, variants: entries)
            let printed = printJSON(document, what: "exploration")
            if printed != .success { return printed }
        }
        return entries.allSatisfy(\.asExpected) ? .success : .unexpectedVerdict
    }
}

/// `explore`'s text: the settings, the counts, the failing schedule as a timeline, the verdict.
extension VariantExploration {
    func text(tool: String, lesson: Lesson, exploration: Exploration) -> String {
        var lines = [
            "lesson \(lesson.number) (\(lesson.slug)), variant \(variant) [\(kind.rawValue)]: \(exploration.summary)"
        ]
        if mode == "replay" {
            lines.append("  replayed 1 schedule on " + counted(threads, "thread"))
        } else {
            var setting = "  strategy \(strategy ?? "?"), " + counted(threads, "thread") + ", "
            switch strategy {
            case "pct": setting += "\(preemptions ?? 0) priority change points"
            case "random": setting += "a random thread at every point"
            default: setting += "at most \(preemptions ?? 0) preemptions"
            }
            if let seed { setting += ", seed \(seed)" }
            lines.append(setting)
            let scope =
                exhaustive
                ? " (every schedule within the bound)"
                : strategy == "dfs" ? " (schedule limit reached, not exhaustive)" : ""
            lines.append(
                "  " + counted(schedules, "schedule")
                    + "\(scope) in \(String(format: "%.3f", elapsedSeconds)) s, \(failingSchedules) failing"
            )
            if let pctGuarantee, let pctSteps, let preemptions {
                lines.append(
                    "  pct guarantee >= 1/(n*k^(d-1)) = 1/(\(pctThreads ?? threads)*\(pctSteps)^\(preemptions)) = "
                        + percent(pctGuarantee) + " per schedule; measured hit rate " + percent(hitRate)
                )
            } else if strategy == "random" {
                lines.append("  measured hit rate " + percent(hitRate))
            }
        }
        if let warning { lines.append("  warning: \(warning)") }
        if let failure {
            lines.append("")
            lines.append("  FAILING SCHEDULE (" + counted(failure.steps.count, "step") + "): \(failure.message)")
            let spawned = failure.spawned ?? []
            lines.append(TimelineText.render(failure.steps, threads: threads + spawned.count, indent: "    "))
            for thread in spawned { lines.append("    \(thread)") }
            lines.append("")
            lines.append("  replay: \(tool) explore \(lesson.number) --variant \(variant) --replay \(failure.replay)")
        } else {
            lines.append("  no failing schedule")
        }
        lines.append("  verdict: \(verdict)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1 schedule`, `6 schedules`.
    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    private func percent(_ value: Double) -> String {
        String(format: "%.2f%%", value * 100)
    }
}

/// The JSON document `explore --json` prints.
struct ExploreDocument: Encodable {
    var tool: String
    var command = "explore"
    var lesson: Int
    var slug: String
    var variants: [VariantExploration]
}

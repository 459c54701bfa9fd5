import Foundation
import RaceLab

/// `explore`: run a lesson's variants under the schedule explorer and print the failing schedule.
extension RaceLabTool {
    func explore(_ request: ExploreRequest) -> ExitCode {
        guard let lesson = lessons.first(where: { $0.number == request.lesson }) else { return .usage }
        let variants = lesson.variants.filter { variant in
            variant.exploration != nil && (request.variant == nil || request.variant == variant.name)
        }
        var entries: [ExploreEntry] = []
        for variant in variants {
            let exploration = variant.exploration!
            do {
                let entry: ExploreEntry
                if let schedule = request.replay {
                    let (result, diverged) = try Explorer.replay(
                        exploration,
                        schedule: schedule,
                        options: request.options
                    )
                    entry = ExploreEntry(variant: variant, replayOf: result, diverged: diverged)
                } else {
                    entry = ExploreEntry(
                        variant: variant,
                        report: try Explorer.explore(exploration, options: request.options)
                    )
                }
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

/// One variant's exploration (or replay), as printed and as encoded.
struct ExploreEntry: Encodable {
    struct Failure: Encodable {
        var kind: String
        var message: String
        var steps: [ScheduleStep]
        var replay: String
        var deadlock: [ThreadPosition]?
        /// Threads the program started while it ran (callbacks, tasks), beyond `threads`.
        var spawned: [SpawnedThread]?
    }

    var variant: String
    var kind: VariantKind
    var mode: String
    var strategy: String?
    var threads: Int
    var preemptions: Int?
    var seed: UInt64?
    var schedules: Int
    var exhaustive: Bool
    var failingSchedules: Int
    var hitRate: Double
    var pctGuarantee: Double?
    var pctSteps: Int?
    var pctThreads: Int?
    var elapsedSeconds: Double
    var failure: Failure?
    var diverged: Bool?
    var warning: String?
    /// The explorer lost control of a thread: no verdict.
    var inconclusive = false
    /// A buggy variant should fail, a fixed one should not.
    var asExpected: Bool

    init(variant: Variant, report: ExplorationReport) {
        self.variant = variant.name
        kind = variant.kind
        mode = "search"
        strategy = report.strategy.rawValue
        threads = report.threads
        preemptions = report.preemptions
        seed = report.strategy == .dfs ? nil : report.seed
        schedules = report.schedules
        exhaustive = report.exhaustive
        failingSchedules = report.failingSchedules
        hitRate = report.hitRate
        pctGuarantee = report.pctGuarantee
        pctSteps = report.pctSteps
        pctThreads = report.pctThreads
        elapsedSeconds = report.elapsedSeconds
        failure = report.failure.map(Self.failure)
        warning = report.warning.map { warning in report.abandoned.map { "\(warning): \($0)" } ?? warning }
        inconclusive = report.abandoned != nil
        asExpected = !inconclusive && (variant.kind == .buggy) == (report.failure != nil)
    }

    init(variant: Variant, replayOf result: ExecutionResult, diverged: Bool) {
        self.variant = variant.name
        kind = variant.kind
        mode = "replay"
        threads = result.schedule.threads
        schedules = 1
        exhaustive = false
        failingSchedules = result.outcome.isFailure ? 1 : 0
        hitRate = Double(failingSchedules)
        elapsedSeconds = 0
        failure = result.outcome.isFailure ? Self.failure(result) : nil
        self.diverged = diverged
        if case .stuck = result.outcome {
            inconclusive = true
            warning = result.outcome.summary
        }
        if diverged { warning = "the schedule did not fit this variant; the run went on without preemptions" }
        asExpected = !diverged && !inconclusive && (variant.kind == .buggy) == result.outcome.isFailure
    }

    private static func failure(_ result: ExecutionResult) -> Failure {
        var deadlock: [ThreadPosition]?
        if case .deadlock(let positions) = result.outcome { deadlock = positions }
        return Failure(
            kind: result.outcome.kind,
            message: result.outcome.summary,
            steps: result.steps,
            replay: result.schedule.replayString,
            deadlock: deadlock,
            spawned: result.spawned.isEmpty ? nil : result.spawned
        )
    }

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
        var verdict: String
        switch (kind, failure != nil) {
        case (.buggy, true): verdict = mode == "replay" ? "REPRODUCED" : "FOUND"
        case (.buggy, false): verdict = mode == "replay" ? "NOT REPRODUCED" : "NOT FOUND"
        case (.fixed, false): verdict = "CLEAN"
        case (.fixed, true): verdict = "FAILED"
        }
        if inconclusive { verdict = "INCONCLUSIVE" }
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
    var variants: [ExploreEntry]
}

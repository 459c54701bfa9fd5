import Foundation
import RaceLab

/// `explore`: run a lesson's variants under the schedule explorer and print the failing schedule.
extension RaceLabTool {
    func explore(_ request: ExploreRequest) -> ExitCode {
        // 'all': one lesson after the other, as `run all` does (--html and --trace need one lesson).
        if request.all {
            var explored: [ExploreLesson] = []
            for number in request.lessons {
                var one = request
                one.lessons = [number]
                guard let entries = exploreLesson(one) else { return .error }
                explored.append(entries)
            }
            if request.json {
                let printed = printJSON(ExploreAllDocument(tool: name, lessons: explored), what: "exploration")
                if printed != .success { return printed }
            }
            return Self.exitCode(for: explored.flatMap(\.variants))
        }
        guard let lesson = lessons.first(where: { $0.number == request.lessons[0] }) else { return .usage }
        let variants = lesson.variants.filter { variant in
            variant.exploration != nil && (request.variant == nil || request.variant == variant.name)
        }
        var entries: [VariantExploration] = []
        var pictures: [SchedulePicture] = []
        for variant in variants {
            do {
                guard let entry = try VariantExploration.run(variant, options: request.options, replay: request.replay),
                    let exploration = variant.exploration
                else { continue }
                entries.append(entry)
                if request.html != nil || request.trace != nil {
                    pictures.append(
                        try picture(
                            of: entry,
                            exploration: exploration,
                            lesson: lesson.number,
                            options: request.options
                        )
                    )
                }
                if !request.json {
                    print(text(of: entry, lesson: lesson, summary: exploration.summary, marks: request.marks))
                }
            } catch let refusal as ReplayRefusal {
                // Nothing ran that could be reported: the schedule is not one of this variant's.
                printError("\(name): error: --replay refused: \(refusal.reason)")
                return .usage
            } catch {
                // A failed setup is an error of the machine, not a verdict on the variant.
                printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
                return .error
            }
        }
        let title = "lesson \(lesson.number) (\(lesson.slug)): \(lesson.title)"
        if let html = request.html,
            !writeFile(html, what: "the HTML page", { ScheduleHTML.render(title: title, pictures: pictures) })
        {
            return .error
        }
        if let trace = request.trace, !writeFile(trace, what: "the trace", { try ScheduleTrace.render(pictures) }) {
            return .error
        }
        if request.json {
            let document = ExploreDocument(tool: name, lesson: lesson.number, slug: lesson.slug, variants: entries)
            let printed = printJSON(document, what: "exploration")
            if printed != .success { return printed }
        }
        return Self.exitCode(for: entries)
    }

    /// The exit status of an exploration: an unexpected verdict that is evidence wins (1); else a
    /// variant without a verdict (ERROR, INCONCLUSIVE, or a fixed variant's CLEAN, NOT EXHAUSTIVE:
    /// not proof) makes it an error (3).
    static func exitCode(for entries: [VariantExploration]) -> ExitCode {
        let unexpected = entries.filter { !$0.asExpected }
        if unexpected.contains(where: \.isConclusive) { return .unexpectedVerdict }
        return unexpected.isEmpty ? .success : .error
    }
}

extension RaceLabTool {
    /// Explores one lesson of `explore all`, printing its text unless `--json`; nil when a variant
    /// could not be set up (said on stderr).
    private func exploreLesson(_ request: ExploreRequest) -> ExploreLesson? {
        guard let lesson = lessons.first(where: { $0.number == request.lessons[0] }) else { return nil }
        var entries: [VariantExploration] = []
        for variant in lesson.variants where variant.exploration != nil {
            do {
                guard let entry = try VariantExploration.run(variant, options: request.options),
                    let exploration = variant.exploration
                else { continue }
                entries.append(entry)
                if !request.json {
                    print(text(of: entry, lesson: lesson, summary: exploration.summary, marks: request.marks))
                }
            } catch {
                printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
                return nil
            }
        }
        return ExploreLesson(lesson: lesson.number, slug: lesson.slug, variants: entries)
    }

    /// One variant's exploration as `explore` prints it: the heading, the report, the verdict.
    func text(of entry: VariantExploration, lesson: Lesson, summary: String, marks: Bool) -> String {
        let heading =
            "lesson \(lesson.number) (\(lesson.slug)), variant \(entry.variant) [\(entry.kind.rawValue)]: " + summary
        return entry.text(heading: heading) { replay in
            Self.replayCommand(tool: name, lesson: lesson.number, variant: entry.variant, marks: marks, replay: replay)
        }
    }

    /// The picture of one explored variant: its failing schedule replayed once more, so that the
    /// state after each step is known where the exploration describes it.
    func picture(
        of entry: VariantExploration,
        exploration: Exploration,
        lesson: Int,
        options: ExplorationOptions
    ) throws -> SchedulePicture {
        var states: [String] = []
        if let failure = entry.failure, exploration.describesState,
            let schedule = Schedule(replayString: failure.replay)
        {
            // A replay that went elsewhere would show the states of another execution.
            if let result = try? Explorer.replay(
                exploration,
                schedule: schedule,
                options: options,
                describingStates: true
            ), result.steps == failure.steps {
                states = result.states
            }
        }
        return SchedulePicture(
            entry,
            invariant: exploration.summary,
            states: states,
            replayCommand: entry.failure.map {
                Self.replayCommand(
                    tool: name,
                    lesson: lesson,
                    variant: entry.variant,
                    marks: options.marks,
                    replay: $0.replay
                )
            }
        )
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

/// One lesson's explorations, as `explore all --json` lists them.
struct ExploreLesson: Encodable {
    var lesson: Int
    var slug: String
    var variants: [VariantExploration]
}

/// The JSON document `explore all --json` prints.
struct ExploreAllDocument: Encodable {
    var tool: String
    var command = "explore"
    var lessons: [ExploreLesson]
}

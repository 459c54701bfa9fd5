import Foundation
import RaceLab

/// `explore`: run a lesson's variants under the schedule explorer and print the failing schedule.
///
/// Each variant is explored in a child process of its own (`IsolatedExploration`): a thread that
/// traps or calls `exit`, or an invariant that traps, ends that variant's exploration with a CRASHED
/// verdict and leaves the others, the text report and the JSON document whole.
extension RaceLabTool {
    func explore(_ request: ExploreRequest) -> ExitCode {
        if let shard = request.shard, let output = request.output {
            return exploreShard(request, shard: shard, output: output)
        }
        // Ctrl-C or SIGTERM kills the child exploring (and what it started); this process then stops.
        ChildProcess.installInterruptHandler(finishing: true)
        let executable = ChildProcess.currentExecutable
        let drawing = request.html != nil || request.trace != nil
        var explored: [ExploreLesson] = []
        var pictures: [SchedulePicture] = []
        // What the text said once in this run (a verdict's scope, what a step is, the queue legend).
        var said = ExplorationTextMemory()
        for number in request.lessons {
            guard let lesson = lessons.first(where: { $0.number == number }) else { return .usage }
            var entries: [ExploreEntry] = []
            var previousSummary: String?
            for variant in lesson.variants
            where variant.exploration != nil && (request.variant == nil || request.variant == variant.name) {
                let outcome = IsolatedExploration.run(
                    variant,
                    lesson: lesson.number,
                    options: request.options,
                    replay: request.replay,
                    // The text shows the state along the failing schedule too, where it is described.
                    states: drawing || !request.json,
                    executable: executable
                )
                // The variant stopped by the interruption has no verdict: nothing more is printed.
                if let signal = ChildProcess.interruptingSignal { return ExitCode(interruptedBy: signal) }
                // What the variant explores is said once for a run of variants that explore the same.
                // Said for the run's thread count: a role of "every other thread" names its threads.
                let threads = request.replay?.threads ?? request.options.threads
                let summary =
                    variant.exploration.map { $0.summary(threads: threads ?? $0.defaultThreads) } ?? variant.summary
                let heading = heading(
                    of: variant,
                    in: lesson,
                    summary: request.verbose || summary != previousSummary ? summary : nil
                )
                previousSummary = summary
                switch outcome {
                case .replayRefused(let reason):
                    // Nothing ran that could be reported: the schedule is not one of this variant's.
                    printError("\(name): error: --replay refused: \(reason)")
                    return .usage
                case .setupFailed(let why):
                    // A failed setup is an error of the machine, not a verdict on the variant.
                    printError("\(name): error: variant \(variant.name) could not be set up: \(why)")
                    return .error
                case .explored(let entry, let states):
                    entries.append(.explored(entry))
                    if drawing {
                        pictures.append(picture(of: entry, in: lesson, states: states, options: request.options))
                    }
                    if !request.json {
                        print(
                            text(
                                of: entry,
                                heading: heading,
                                lesson: lesson,
                                marks: request.options.marks,
                                verbose: request.verbose,
                                states: states,
                                said: &said
                            )
                        )
                    }
                case .failed(let failure):
                    entries.append(.failed(failure))
                    if !request.json { print(wrappedText(failure.text(heading: heading))) }
                }
            }
            // A whole lesson's exploration says which of its variants it left out, and why (a line
            // that does not open like a variant's heading: it has no verdict).
            let unexplored = lesson.variants.filter { $0.exploration == nil }
            if request.variant == nil && !request.json && !unexplored.isEmpty {
                let reasons = unexplored.map { variant in
                    variant.notExploredReason.map { "\(variant.name) (\($0))" } ?? variant.name
                }
                print(
                    wrappedText(
                        "not explored in lesson \(lesson.number): \(reasons.joined(separator: "; "))"
                    ) + "\n"
                )
            }
            // A whole lesson's exploration ends with its summary line; with files to write, after
            // them, since a file not written decides the status too.
            if request.variant == nil && !request.json && !drawing {
                print(Self.summary(lesson: lesson.number, entries: entries, unexplored: unexplored.count))
            }
            explored.append(
                ExploreLesson(number: lesson.number, slug: lesson.slug, title: lesson.title, variants: entries)
            )
        }
        // The JSON document first: a file that cannot be written below must not cost it.
        if request.json {
            let printed =
                request.all
                ? printJSON(ExploreAllDocument(tool: name, lessons: explored), what: "exploration")
                : printJSON(ExploreDocument(tool: name, explored: explored[0]), what: "exploration")
            if printed != .success { return printed }
        }
        // What could not be written (`the HTML page`, `the trace`): an error, said by `writeFile`.
        var unwritten: [String] = []
        if drawing, let lesson = lessons.first(where: { $0.number == request.lessons[0] }) {
            let title = "lesson \(lesson.number) (\(lesson.slug)): \(lesson.title)"
            if let html = request.html,
                !writeFile(html, what: "the HTML page", { ScheduleHTML.render(title: title, pictures: pictures) })
            {
                unwritten.append("the HTML page")
            }
            if let trace = request.trace,
                !writeFile(trace, what: "the trace", { try ScheduleTrace.render(pictures) })
            {
                unwritten.append("the trace")
            }
        }
        if request.variant == nil && !request.json && drawing, let lesson = explored.first {
            let unexplored = lessons.first { $0.number == lesson.number }?.variants.filter { $0.exploration == nil }
            print(
                Self.summary(
                    lesson: lesson.number,
                    entries: lesson.variants,
                    unexplored: unexplored?.count ?? 0,
                    unwritten: unwritten
                )
            )
        }
        return Self.exitCode(for: explored.flatMap(\.variants), written: unwritten.isEmpty)
    }

    /// A whole lesson's closing line, in `run`'s words (`TextReport.summaryLine`): how many buggy
    /// variants had a failing schedule found and fixed ones stayed clean, how many were not explored
    /// (not counted: they decide nothing), then the exit status `exitCode(for:written:)` gives and
    /// what decided it: PASS (0); FAIL (1), naming every variant without its expected verdict;
    /// ERROR (3) when errors (an ERROR verdict, a file in `unwritten`) are all that went wrong; NO
    /// VERDICT (3) when a variant got none otherwise (INCONCLUSIVE, CLEAN, NOT EXHAUSTIVE, NOT
    /// INTERLEAVED).
    static func summary(
        lesson: Int,
        entries: [ExploreEntry],
        unexplored: Int,
        unwritten: [String] = []
    ) -> String {
        let buggy = entries.filter { $0.kind == .buggy }
        let fixed = entries.filter { $0.kind == .fixed }
        let failing = entries.filter { !$0.asExpected }
        let status = exitCode(for: entries, written: unwritten.isEmpty)
        let outcome =
            switch status {
            case .success: "PASS"
            case .unexpectedVerdict: "FAIL, exit \(status.rawValue)"
            default:
                (failing.allSatisfy { $0.verdict == Verdict.error.label } ? "ERROR" : "NO VERDICT")
                    + ", exit \(status.rawValue)"
            }
        return TextReport().summaryLine(
            lesson: lesson,
            buggy: (buggy.filter(\.asExpected).count, buggy.count),
            shown: "found",
            fixed: (fixed.filter(\.asExpected).count, fixed.count),
            besides: unexplored > 0 ? ["\(unexplored) not explored (not counted)"] : [],
            outcome: outcome,
            deciding: failing.map { ($0.variant, $0.verdict) } + unwritten.map { ($0, "not written") }
        )
    }

    /// The exit status of an exploration: an unexpected verdict that is evidence wins (1); else a
    /// variant without a verdict (ERROR, INCONCLUSIVE, or a fixed variant's CLEAN, NOT EXHAUSTIVE or
    /// NOT INTERLEAVED: not proof) or a file not written makes it an error (3).
    static func exitCode(for entries: [ExploreEntry], written: Bool) -> ExitCode {
        let unexpected = entries.filter { !$0.asExpected }
        if unexpected.contains(where: \.isConclusive) { return .unexpectedVerdict }
        return unexpected.isEmpty && written ? .success : .error
    }
}

extension RaceLabTool {
    /// The first line of a variant's exploration: the lesson, the variant and what it explores
    /// (`summary`; nil when the variant before it said the same).
    func heading(of variant: Variant, in lesson: Lesson, summary: String?) -> String {
        "lesson \(lesson.number) (\(lesson.slug)), variant \(variant.name) [\(variant.kind.rawValue)]"
            + ": " + (summary ?? "as above")
    }

    /// One variant's exploration as `explore` prints it: the heading, the report, the verdict, in
    /// lines of at most `reportWidth` columns but for the replay line, which stays one command; the
    /// state along the failing schedule under its timeline, when `states` has it.
    func text(
        of entry: VariantExploration,
        heading: String,
        lesson: Lesson,
        marks: Bool,
        verbose: Bool = false,
        states: [String] = [],
        said: inout ExplorationTextMemory
    )
        -> String
    {
        entry.text(heading: heading, verbose: verbose, width: reportWidth, states: states, after: &said) {
            replay in
            Self.replayCommand(
                tool: commandName,
                lesson: lesson.number,
                variant: entry.variant,
                marks: marks,
                replay: replay
            )
        }
    }

    /// The picture of one explored variant, with the states along its failing schedule that its
    /// child replayed it for.
    func picture(
        of entry: VariantExploration,
        in lesson: Lesson,
        states: [String],
        options: ExplorationOptions
    ) -> SchedulePicture {
        SchedulePicture(
            entry,
            invariant: lesson.variant(named: entry.variant)?.exploration?.summary(threads: entry.threads) ?? "",
            states: states,
            replayCommand: entry.failure.map {
                Self.replayCommand(
                    tool: commandName,
                    lesson: lesson.number,
                    variant: entry.variant,
                    marks: options.marks,
                    replay: $0.replay
                )
            }
        )
    }
}

/// One variant in the JSON documents of `explore`: its exploration, or how it ended without one.
enum ExploreEntry: Encodable {
    case explored(VariantExploration)
    case failed(ExplorationFailure)

    var asExpected: Bool {
        switch self {
        case .explored(let entry): entry.asExpected
        case .failed: false
        }
    }

    /// The variant's name.
    var variant: String {
        switch self {
        case .explored(let entry): entry.variant
        case .failed(let failure): failure.variant
        }
    }

    /// Whether the variant is buggy or fixed.
    var kind: VariantKind {
        switch self {
        case .explored(let entry): entry.kind
        case .failed(let failure): failure.kind
        }
    }

    /// The verdict as the text prints it: `CLEAN, NOT EXHAUSTIVE`, `CRASHED`.
    var verdict: String {
        switch self {
        case .explored(let entry): entry.verdict
        case .failed(let failure): failure.verdict.label
        }
    }

    /// Whether the entry is evidence either way: an exploration with a verdict, or a crash of the
    /// variant's code (not an error of the machine, not an unfinished or partial search).
    var isConclusive: Bool {
        switch self {
        case .explored(let entry): entry.isConclusive
        case .failed(let failure): failure.verdict != .error
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .explored(let entry): try entry.encode(to: encoder)
        case .failed(let failure): try failure.encode(to: encoder)
        }
    }
}

/// The JSON document `explore --json` prints: the lesson's fields at the top level.
struct ExploreDocument: Encodable {
    var tool: String
    var schemaVersion = ExploreLesson.schemaVersion
    var command = "explore"
    var number: Int
    var slug: String
    var title: String
    var variants: [ExploreEntry]

    init(tool: String, explored: ExploreLesson) {
        self.tool = tool
        number = explored.number
        slug = explored.slug
        title = explored.title
        variants = explored.variants
    }
}

/// One lesson's explorations, as `explore all --json` lists them: a lesson as every document
/// names it (`number`, `slug`, `title`), then its variants.
struct ExploreLesson: Encodable {
    /// The schema version of the explore documents; bumped when a field changes meaning or disappears.
    static let schemaVersion = 1

    var number: Int
    var slug: String
    var title: String
    var variants: [ExploreEntry]
}

/// The JSON document `explore all --json` prints.
struct ExploreAllDocument: Encodable {
    var tool: String
    var schemaVersion = ExploreLesson.schemaVersion
    var command = "explore"
    var lessons: [ExploreLesson]
}

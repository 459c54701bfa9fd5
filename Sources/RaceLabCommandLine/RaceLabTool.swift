import Foundation
import RaceLab

/// The `racelab` command-line tool, as a library type: the `racelab` executable is one line that
/// runs it with the built-in lessons, and another package can run it with lessons of its own to get
/// the same runner, report and verdict for its own types.
///
/// ```swift
/// // main.swift of your own executable target
/// import RaceLabCommandLine
/// RaceLabTool(name: "cache-check", lessons: [cacheLesson]).main()
/// ```
public struct RaceLabTool: Sendable {
    /// The name shown in help and reports.
    public let name: String
    /// What `--version` prints after the name (RaceLab's own version unless given).
    public let version: String
    /// The lessons the commands know, in number order.
    public let lessons: [Lesson]

    /// - Precondition: no two lessons share a number.

    public init(name: String = "racelab", version: String = RaceLabTool.racelabVersion, lessons: [Lesson]) {
        precondition(Set(lessons.map(\.number)).count == lessons.count, "lesson numbers must be unique")
        self.name = name
        self.version = version
        self.lessons = lessons.sorted { $0.number < $1.number }
    }

    /// RaceLab's version.
    /// RaceLab's release (`raceLabVersion`), the default `version`.
    public static let racelabVersion = raceLabVersion

    /// Runs the tool with the process's arguments and exits with its status.
    public func main() -> Never {
        exit(run(Array(CommandLine.arguments.dropFirst())).rawValue)
    }

    /// Runs the tool with `arguments` (without the program name), printing to stdout and stderr.
    public func run(_ arguments: [String]) -> ExitCode {
        let help = HelpText(tool: name)
        let command: ParsedCommand
        do {
            command = try ArgumentParser(lessons: lessons).parse(arguments)
        } catch {
            printError("\(name): error: \(error.message)")
            printError(help.usage(error.command))
            return .usage
        }
        if let descriptor = command.descriptor, descriptor.keepsScratchFiles {
            if let problem = TemporaryDirectory.problem() {
                printError("\(name): error: \(problem)")
                printError(help.usage(descriptor))
                return .usage
            }
            // Folders of runs killed with SIGKILL (which could not remove their own) go first.
            ScratchSpace.sweepStaleFolders()
        }
        switch command {
        case .help(nil):
            print(help.overview())
            return .success
        case .help(let command?):
            print(help.help(command))
            return .success
        case .version:
            print("\(name) \(version)" + (ThreadSanitizer.isActive ? " (ThreadSanitizer)" : ""))
            return .success
        case .request(let request):
            return request.run(in: self)
        }
    }

    // MARK: - list

    func list(json: Bool) -> ExitCode {
        if json {
            struct Listing: Encodable {
                struct LessonEntry: Encodable {
                    var number: Int, slug: String, title: String, summary: String
                    var trials: Int, iterations: Int
                    var variants: [VariantEntry]
                }
                struct VariantEntry: Encodable {
                    var name: String, kind: VariantKind, summary: String, explorable: Bool
                }
                var tool: String
                var schemaVersion = 1
                var lessons: [LessonEntry]
            }
            let listing = Listing(
                tool: name,
                lessons: lessons.map { lesson in
                    Listing.LessonEntry(
                        number: lesson.number,
                        slug: lesson.slug,
                        title: lesson.title,
                        summary: lesson.summary,
                        trials: lesson.workload.trials,
                        iterations: lesson.workload.iterations,
                        variants: lesson.variants.map {
                            .init(name: $0.name, kind: $0.kind, summary: $0.summary, explorable: $0.exploration != nil)
                        }
                    )
                }
            )
            return printJSON(listing, what: "listing")
        }
        // Every line fits a projected terminal (`reportWidth`): a long summary wraps under its own
        // start; `--json` has every text on one line.
        for lesson in lessons {
            print("\(lesson.number)  \(lesson.slug): \(lesson.title)")
            for line in wrapped("   \(lesson.summary)", hang: "   ") { print(line) }
            let width = lesson.variants.map(\.name.count).max() ?? 0
            for variant in lesson.variants {
                let name = variant.name.padding(toLength: width, withPad: " ", startingAt: 0)
                // Marked the other way round: most variants can be explored. The mark goes next to
                // the kind, so that it stays on the variant's first line.
                let explorable = variant.exploration == nil ? ", not explorable" : ""
                let line = "   - \(name)  [\(variant.kind.rawValue)\(explorable)] \(variant.summary)"
                for part in wrapped(line, hang: String(repeating: " ", count: 7 + width)) { print(part) }
            }
            print("")
        }
        // Two lines, each a whole command: a command cut at the width would not run as pasted.
        let first = lessons.first?.number ?? 1
        print("Run one with '\(commandName) run <number|slug>', e.g. '\(commandName) run \(first)';")
        print("search its thread schedules with '\(commandName) explore \(first)'.")
        return .success
    }

    // MARK: - run

    func run(_ request: RunRequest) -> ExitCode {
        // On SIGINT or SIGTERM the variant running is stopped and what finished is still reported.
        ChildProcess.installInterruptHandler(finishing: true)
        let seed = request.selection.seedOrNew
        let executable = ChildProcess.currentExecutable
        let text = TextReport(lessonVariants: true, verbose: request.verbose)
        // A lesson's variants and legend use its own words for its counts.
        let lessonText = { (lesson: Lesson) in
            TextReport(lessonVariants: true, verbose: request.verbose, countLabels: lesson.countLabels)
        }
        let progress = Progress()

        // Every variant to run, lesson by lesson, in the order the report lists them.
        struct Planned {
            var lesson: Lesson
            var variant: Variant
            var request: IsolatedRun.Request
        }
        var planned: [Planned] = []
        for number in request.selection.lessons {
            guard let lesson = lessons.first(where: { $0.number == number }) else { continue }
            for variant in lesson.variants
            where request.selection.variant == nil || request.selection.variant == variant.name {
                var workload = lesson.workload(for: variant)
                if let trials = request.selection.trials { workload.trials = trials }
                if let iterations = request.selection.iterations { workload.iterations = iterations }
                let options = StressRunner.Options(workload: workload, seed: seed, noise: request.noise)
                planned.append(
                    Planned(
                        lesson: lesson,
                        variant: variant,
                        request: IsolatedRun.Request(
                            lesson: lesson,
                            variant: variant,
                            options: options,
                            timeout: request.selection.timeout
                        )
                    )
                )
            }
        }
        let width = request.jobs > 1 ? runWidth(jobs: request.jobs, cores: SystemLoad.cores()) : 1

        var lessonReports: [RunReport.LessonReport] = []
        var reports: [VariantReport] = []
        var headerShown = false
        func showHeader(_ lesson: Lesson) {
            guard !headerShown else { return }
            headerShown = true
            if !request.json {
                print(
                    text.header(
                        lessonNumber: lesson.number,
                        title: lesson.title,
                        seed: seed,
                        noise: request.noise,
                        timeout: request.selection.timeout
                    )
                )
            }
        }
        // A lesson's header shows before its variants run; once interrupted, only above a variant
        // that finished.
        if let first = planned.first, ChildProcess.interruptingSignal == nil { showHeader(first.lesson) }
        // Each variant's report in the order planned, whatever order they ran in; a lesson's summary
        // after its last variant.
        func deliver(_ index: Int, _ finished: VariantReport?) {
            progress.clear()
            let lesson = planned[index].lesson
            // A variant stopped by the interruption has no verdict: it is left out.
            if var report = finished {
                showHeader(lesson)
                if let system = ToolExpectation.OperatingSystem.current {
                    report.unmeasured = planned[index].variant.unmeasuredReasons[system]
                }
                reports.append(report)
                if !request.json { print(lessonText(lesson).variant(report, counts: lesson.measuredCounts)) }
            }
            guard index + 1 == planned.count || planned[index + 1].lesson.number != lesson.number else { return }
            if !reports.isEmpty {
                let lessonReport = RunReport.LessonReport(
                    number: lesson.number,
                    slug: lesson.slug,
                    title: lesson.title,
                    variants: reports,
                    countLabels: RunReport.LessonReport.countLabels(fromLesson: lesson.countLabels)
                )
                lessonReports.append(lessonReport)
                if !request.json {
                    let legend = lessonText(lesson).countLegend(
                        lesson.countMeanings,
                        reports: reports,
                        counts: lesson.measuredCounts
                    )
                    if !legend.isEmpty { print(legend) }
                    let explorable = Set(lesson.variants.filter { $0.exploration != nil }.map(\.name))
                    print(
                        text.summary(lessonReport)
                            + text.hiddenBugAdvice(lessonReport, explorable: explorable, tool: commandName)
                    )
                }
            }
            reports = []
            headerShown = false
            if index + 1 < planned.count, ChildProcess.interruptingSignal == nil {
                showHeader(planned[index + 1].lesson)
            }
        }
        IsolatedRun.run(
            planned.map(\.request),
            width: width,
            executable: executable,
            stopped: { ChildProcess.interruptingSignal != nil },
            whileWaiting: { running, elapsed in
                let names = running.map { "lesson \(planned[$0].lesson.number) · \(planned[$0].variant.name)" }
                progress.show("running \(names.joined(separator: " + ")) … \(String(format: "%.1f", elapsed)) s")
            },
            deliver: deliver
        )

        let signal = ChildProcess.interruptingSignal
        let report = RunReport(
            tool: name,
            seed: seed,
            noise: request.noise,
            lessons: lessonReports,
            interrupted: signal.map(signalName)
        )
        if let signal, !request.json {
            let finished = lessonReports.map(\.variants.count).reduce(0, +)
            let stopped =
                width == 1
                ? "the one running was stopped and has no verdict" : "those running were stopped and have no verdict"
            print(
                "INTERRUPTED by \(signalName(signal)): the report above holds the \(finished) variant"
                    + "\(finished == 1 ? "" : "s") that finished; \(stopped)"
            )
        }
        if request.json {
            let printed = printJSON("report") { try report.jsonText() }
            if printed != .success { return printed }
        }
        // Each file is written even when another could not be: one failure loses nothing else.
        var written = true
        if let junit = request.junit { written = writeJUnit(JUnitDocument(run: report), to: junit) && written }
        if let html = request.html {
            written = writeFile(html, what: "the HTML report", { RunHTML.render(report) }) && written
        }
        if !written { return .error }
        if let signal { return ExitCode(interruptedBy: signal) }
        return Self.exitCode(for: report)
    }
}

extension RaceLabTool {
    /// Runs a lesson's worker in this process (see `LessonWorker`): 0 when it returns, 1 when it throws.
    func runWorker(_ request: WorkerRequest) -> ExitCode {
        guard let lesson = lessons.first(where: { $0.number == request.lesson }),
            let worker = lesson.workers.first(where: { $0.name == request.worker })
        else { return .usage }
        WorkerProcess.exitWhenOrphaned(parent: request.parent)
        do {
            try worker.main(request.arguments)
            return .success
        } catch {
            printError("\(name): worker \(lesson.number)/\(worker.name) failed: \(error)")
            return .unexpectedVerdict
        }
    }
}

/// A one-line progress display on stderr, shown only when stderr is a terminal.
private struct Progress {
    let enabled = isatty(STDERR_FILENO) == 1

    func show(_ line: String) {
        guard enabled else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

func printError(_ line: String) {
    // stdout is buffered when piped: flushed first, what was printed before this line comes before it
    // in a log that takes both streams, and the two never splice mid-line.
    fflush(nil)  // every C output stream; `stdout` itself is not concurrency-safe to name
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension RaceLabTool {
    /// How many variants `run --jobs jobs` runs at once on a machine with `cores`: `jobs`, but no more
    /// than the cores its load leaves idle, and at least 1. Said on stderr, since it decides how
    /// loaded the variants run: a loaded machine changes how often a bug shows.
    func runWidth(jobs: Int, cores: SystemLoad.Cores) -> Int {
        let width = max(1, min(jobs, cores.idle))
        let load = cores.load.map {
            "load \(String(format: "%.2f", $0)) on \(cores.total) core\(cores.total == 1 ? "" : "s")"
        }
        let idle = cores.idle == 0 ? "none idle" : "\(cores.idle) idle"
        printError(
            "\(name): --jobs \(jobs): \(width) variant\(width == 1 ? "" : "s") at a time ("
                + (load.map { "\($0), \(idle)" } ?? "load average unknown, no core counted idle") + ")"
        )
        return width
    }

    /// The exit status of a run: an unexpected verdict wins over an error (it is evidence), an error
    /// over success (it is not).
    static func exitCode(for report: RunReport) -> ExitCode {
        let verdicts = report.lessons.flatMap(\.variants).filter { !$0.passed }.map(\.verdict)
        if verdicts.contains(where: { $0 != .error }) { return .unexpectedVerdict }
        return verdicts.isEmpty ? .success : .error
    }
}

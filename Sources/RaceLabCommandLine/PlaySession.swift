import Foundation
import RaceLab

/// `racelab play`: a person is the scheduler of one variant's exploration, step by step.
///
/// Plain lines in, plain lines out: it reads stdin with `readLine`, so a pipe can play it and a
/// test can check the transcript. When stdin is not a terminal, each line read is echoed after its
/// prompt, so that the transcript reads like the session it was.
///
/// An undo, a restart and a hint all end the execution in progress (its threads are paused inside
/// real code, which cannot be rolled back) and run the program again, replaying the steps to keep:
/// the same schedule makes the same execution.
final class PlaySession {
    private let tool: String
    private let lesson: Lesson
    private let variant: Variant
    private let exploration: Exploration
    private let threads: Int
    private let style: TerminalStyle
    private let echo = isatty(STDIN_FILENO) != 1
    /// Whether the next decision is shown in full (not after a hint or a refused line).
    private var showNext = true
    /// The kinds of queue step (`sync`, `async`, `item`, `barrier`) the legend already explained: each is
    /// explained once, the first time a step of that kind is offered or shown.
    private var legendShown: Set<String> = []
    /// The numbers of a line of several (`0 0 1 1`) not played yet: each is one step, in order.
    private var queued: [Int] = []

    /// What the player asked for besides running a thread.
    private enum Command {
        case undo, restart, hint, quit
    }

    /// One line of input, read.
    private enum Input {
        case thread(Int)
        case command(Command)
        /// End of input.
        case end
        /// A line that was refused, with the reason already printed.
        case refused
    }

    init(tool: String, lesson: Lesson, variant: Variant, exploration: Exploration, threads: Int?) {
        self.tool = tool
        self.lesson = lesson
        self.variant = variant
        self.exploration = exploration
        self.threads = threads ?? exploration.defaultThreads
        style = .standardOutput
    }

    /// Plays until the player quits or input ends.
    /// - Throws: what the exploration's set-up threw.
    func run() throws -> ExitCode {
        print(
            style.bold("lesson \(lesson.number) (\(lesson.slug)), variant \(variant.name) [\(variant.kind.rawValue)]:")
        )
        print(wrapped("  " + exploration.summary(threads: threads)).joined(separator: "\n"))
        print(
            wrapped(
                "You are the scheduler. At each step, type the number of the \(unit) to run next; "
                    + "? lists the other commands."
            ).joined(separator: "\n")
        )
        var prefix: [Int] = []
        while true {
            var command: Command?
            let played = try Explorer.play(exploration, threads: threads, prefix: prefix) { decision in
                if self.showNext { self.show(decision) }
                self.showNext = true
                while true {
                    switch self.read(decision) {
                    case .thread(let thread): return .run(thread)
                    case .command(let asked):
                        command = asked
                        return .stop
                    case .end:
                        command = .quit
                        return .stop
                    case .refused:
                        continue
                    }
                }
            }
            let kept = played.steps.map(\.thread)
            if command == nil && !queued.isEmpty {
                let rest = queued.map(String.init).joined(separator: " ")
                print(wrappedText("The execution ended: the rest of the line (\(rest)) was not played."))
            }
            queued = []
            if played.diverged {
                print("The program did not replay the same steps (it is not deterministic); starting over.")
                prefix = []
                continue
            }
            switch command {
            case .undo: prefix = Array(kept.dropLast())
            case .restart: prefix = []
            case .hint:
                try hint(after: kept)
                prefix = kept
                showNext = false
            case .quit: return .success
            case nil:
                try showEnd(played.result)
                guard let next = afterEnd(played.result) else { return .success }
                prefix = next
            }
        }
    }

    // MARK: - Showing

    /// What the tables and the status lines call a unit of the program: its async bodies run as tasks.
    private var unit: String { exploration.isAsync ? "task" : "thread" }

    private func show(_ decision: PlayDecision) {
        print("")
        // The step just played is where the code saw the failure: said there, not only at the end.
        if let seen = decision.failureSeen, seen.step == decision.steps.count {
            for part in wrapped("✗ " + seen.line(unit: unit), hang: "  ") { print(style.red(part)) }
        }
        var heading = "step \(decision.steps.count + 1)"
        // A state of several parts (`store holds [] · thread 0 read [] → …`) shows one per line.
        let hang = String(repeating: " ", count: "step \(decision.steps.count + 1)   state: ".count)
        // Only the first line carries the step's bold heading.
        var stateLines = Self.stateLines(decision.state ?? "", hang: hang)
        if !stateLines.isEmpty {
            heading += "   " + style.dim("state: ") + stateLines.removeFirst().dropFirst(hang.count)
        }
        print(style.bold(heading))
        for line in stateLines { print(line) }
        for thread in decision.threads {
            let name = "  \(unit) \(thread.id)"
            switch (thread.next, thread.canRun) {
            case (let next?, true): print(style.bold(name) + "  next: \(next)")
            case (let next?, false): print(name + "  waits at: \(next) (cannot run now)")
            case (nil, _): print(name + "  finished")
            }
        }
        if !decision.steps.isEmpty {
            print("  so far:")
            print(
                TimelineText.render(
                    decision.steps,
                    threads: decision.threads.count,
                    indent: "  ",
                    unit: unit,
                    marked: decision.failureSeen?.step
                )
            )
        }
        // A queue's block offered as a thread's next step is named after it (`ui item`).
        let next = decision.threads.compactMap(\.next)
        showLegend(operations: next + decision.steps.map(\.operation), threadNames: next)
    }

    /// Prints the lines of the queue legend (`sync storage: …`, as `racelab explore` prints it) that
    /// explain `operations` or `threadNames`, for the kinds of step not explained yet in this session.
    private func showLegend(operations: [String], threadNames: [String] = []) {
        for (kind, line) in VariantExploration.queueLegend(operations: operations, threadNames: threadNames)
        where legendShown.insert(kind).inserted {
            for part in wrapped("  " + line, hang: "    ") { print(part) }
        }
    }

    /// A state (`store holds [] · thread 0 read [] → …`) one part a line, each indented by `hang`; a
    /// part too wide for a projector breaks at its `; ` first, then at spaces.
    static func stateLines(_ state: String, hang: String) -> [String] {
        state.components(separatedBy: " · ").filter { !$0.isEmpty }.flatMap { part -> [String] in
            // Too wide: one clause a line, each but the last keeping its `;`.
            let clauses =
                hang.count + part.count > reportWidth
                ? part.replacingOccurrences(of: "; ", with: ";\n").components(separatedBy: "\n") : [part]
            return clauses.flatMap { wrapped(hang + $0, hang: hang + "  ") }
        }
    }

    private func showEnd(_ result: ExecutionResult) throws {
        print("")
        let threadCount = result.threadCount
        switch result.outcome {
        case .passed: print(style.green("The invariant held") + " after " + counted(result.steps.count, "step") + ".")
        case .invariantBroken(let what):
            let line = "The invariant broke: \(what) (" + counted(result.steps.count, "step") + ")."
            for part in wrapped(line) { print(style.red(part)) }
        case .threw where !result.isFailure:
            print("A \(unit) threw: \(result.outcome.summary): an error, not the bug the lesson is about.")
        case .stepBoundExceeded, .stuck: print("The execution did not end: \(result.outcome.summary).")
        default: print(style.red("The execution failed: \(result.outcome.summary)") + ".")
        }
        if let state = result.states.last {
            let heading = "  state at the end: "
            let lines = Self.stateLines(state, hang: String(repeating: " ", count: heading.count))
            print(heading + lines.joined(separator: "\n").dropFirst(heading.count))
        }
        // Where the code saw the broken invariant, as `explore` marks it.
        let seen: FailureSeen? = result.outcome.kind == "invariant" ? result.failureSeen : nil
        print(TimelineText.render(result.steps, threads: threadCount, indent: "  ", unit: unit, marked: seen?.step))
        for thread in result.spawned { print("  " + TimelineText.legend(thread, unit: unit)) }
        if let seen { print(wrapped("  ✗ " + seen.line(unit: unit), hang: "    ").joined(separator: "\n")) }
        showLegend(operations: result.steps.map(\.operation), threadNames: result.spawned.map(\.name))
        // The command fits a projector and still runs as pasted: it wraps with a trailing `\`.
        let command = RaceLabTool.replayCommand(
            tool: tool,
            lesson: lesson.number,
            variant: variant.name,
            replay: result.schedule.replayString
        )
        print(wrappedCommand(prefix: "replay: ", command: command).joined(separator: "\n"))
        try verdict(after: result)
    }

    /// What the explorer says about the variant, after a play: it checks every schedule within the
    /// default bound, so that a fixed variant's "you could not break it" is a measured claim.
    private func verdict(after result: ExecutionResult) throws {
        if variant.kind == .buggy && result.isFailure {
            // The invariant's own words say whether this is the lesson's story or another way to break it.
            print(style.green("You broke it.") + " The timeline above is the interleaving that did it.")
            return
        }
        // Every schedule, not every behaviour: the counts below speak of schedules.
        let report = try Explorer.explore(exploration, options: ExplorationOptions(reduction: .none, threads: threads))
        let bound = report.threadsAndTheirWork + ", with " + report.preemptionBound
        if report.failure == nil {
            // Only a search that ran every schedule within the bound says that none breaks it.
            let line =
                report.exhaustive
                ? "No schedule breaks it: the explorer checked all \(report.schedules) schedules of \(bound)."
                : "None of the \(report.schedules) schedules the explorer checked breaks it (not all those of "
                    + "\(bound))."
            print(wrappedText(line))
        } else {
            print(
                wrappedText(
                    "The explorer finds \(report.failingSchedules) failing among \(report.schedules) schedules "
                        + "of \(bound): r to try again, h for a hint on the way."
                )
            )
        }
    }

    /// After the end: what to replay next, or nil to quit.
    private func afterEnd(_ result: ExecutionResult) -> [Int]? {
        let choices = result.schedule.choices
        while true {
            prompt("r play again, u undo the last step, q quit")
            guard let line = readLine() else {
                print("")
                return nil
            }
            if echo { print(line) }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "r": return []
            case "u": return Array(choices.dropLast())
            case "q": return nil
            case "?": printCommands()
            default: print("The execution is over: type r, u or q.")
            }
        }
    }

    private func hint(after prefix: [Int]) throws {
        let report = try Explorer.explore(
            exploration,
            options: ExplorationOptions(reduction: .none, threads: threads, schedules: Self.hintSchedules),
            after: prefix
        )
        // The schedules that start with the steps played so far, not those of the whole game: the
        // count says so.
        let searched =
            switch (report.exhaustive, report.schedules) {
            case (true, 1): "the explorer checked the only one that continues from here"
            case (true, _): "the explorer checked all \(grouped(report.schedules)) schedules that continue from here"
            case (false, 1): "the explorer checked 1 schedule that continues from here"
            case (false, _): "the explorer checked \(grouped(report.schedules)) schedules that continue from here"
            }
        guard let failure = report.failure, failure.steps.count > prefix.count else {
            print(
                wrappedText(
                    "hint: no schedule from here breaks it within \(report.preemptions) more preemptions "
                        + "(\(searched))" + (prefix.isEmpty ? "." : "; u undoes a step.")
                )
            )
            return
        }
        let next = failure.steps[prefix.count]
        // The move on a line of its own, what it leads to under it: both fit a projector.
        print("hint: run \(unit) \(next.thread) (\(next.operation))")
        let remaining = counted(failure.steps.count - prefix.count, "more step")
        print(
            wrappedText(
                report.exhaustive && report.schedules == 1
                    ? "  only one schedule remains from here, and it fails in \(remaining)"
                    : "  a shortest failing schedule takes \(remaining); \(searched)"
            )
        )
    }

    /// Schedules a hint searches at most: enough for every lesson's default threads, quick to run.
    static let hintSchedules = 20_000

    // MARK: - Reading

    private func read(_ decision: PlayDecision) -> Input {
        let runnable = decision.runnable
        let choices = runnable.map(String.init).joined(separator: ", ")
        prompt("run which \(unit)? (\(choices); u h r q ?)")
        let line: String
        if queued.isEmpty {
            guard let typed = readLine() else {
                print("")
                print("End of input: the game ends here.")
                return .end
            }
            if echo { print(typed) }
            // A line of several thread numbers is that many steps: the first now, the rest at the
            // prompts that follow.
            let words = typed.split(whereSeparator: \.isWhitespace)
            let threads = words.compactMap { Int($0) }
            if words.count > 1 && threads.count == words.count {
                line = String(threads[0])
                queued = Array(threads.dropFirst())
            } else {
                line = typed
            }
        } else {
            // The next number of that line, shown after its prompt as if typed there.
            line = String(queued.removeFirst())
            print(line)
        }
        let text = line.trimmingCharacters(in: .whitespaces).lowercased()
        if let thread = Int(text) {
            if runnable.contains(thread) { return .thread(thread) }
            // The rest of a line of numbers stops at the first step that cannot run.
            queued = []
            if let waiting = decision.threads.first(where: { $0.id == thread }) {
                let why = waiting.next.map { "it waits at \($0)" } ?? "it has finished"
                print("\(unit.capitalized) \(thread) cannot run now (\(why)); type one of \(choices).")
            } else {
                print("There is no \(unit) \(thread); type one of \(choices).")
            }
            return .refused
        }
        switch text {
        case "u" where decision.steps.isEmpty:
            print("Nothing to undo: no step has run yet.")
        case "u": return .command(.undo)
        case "h": return .command(.hint)
        case "r": return .command(.restart)
        case "q": return .command(.quit)
        case "?": printCommands()
        case "": print("Type a \(unit) number (\(choices)), or ? for the commands.")
        default: print("Unknown command '\(line)': type a \(unit) number (\(choices)), u, h, r, q or ?.")
        }
        return .refused
    }

    private func printCommands() {
        print(
            """
              <number>  run that \(unit) to its next scheduling point
              0 0 1     several numbers: that many steps, in order (stops at one that cannot run)
              u         undo the last step
              h         hint: the next step of a shortest failing schedule from here
              r         restart from the first step
              q         quit
              ?         this list
            """
        )
    }

    private func prompt(_ text: String) {
        print(style.bold(text) + " > ", terminator: "")
        fflush(nil)  // every output stream; `stdout` itself is not concurrency-safe to name
    }

    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }
}

extension RaceLabTool {
    /// `play`: runs a `PlaySession` on the request's variant.
    func play(_ request: PlayRequest) -> ExitCode {
        guard let lesson = lessons.first(where: { $0.number == request.lesson }),
            let variant = request.variant.flatMap(lesson.variant(named:)),
            let exploration = variant.exploration
        else { return .usage }
        do {
            let session = PlaySession(
                tool: commandName,
                lesson: lesson,
                variant: variant,
                exploration: exploration,
                threads: request.threads
            )
            return try session.run()
        } catch {
            printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
            return .error
        }
    }

    /// The command line that replays `replay` (a replay string) on one variant; `marks` false for a
    /// schedule found with `--marks off`, whose steps are jobs, not marks.
    static func replayCommand(tool: String, lesson: Int, variant: String, marks: Bool = true, replay: String) -> String
    {
        "\(tool) explore \(lesson) --variant \(variant)\(marks ? "" : " --marks off") --replay \(replay)"
    }
}

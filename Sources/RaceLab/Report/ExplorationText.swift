import Foundation

/// The explorer's text, as `racelab explore` prints it and as a failed test expectation reports it:
/// the settings, the counts, the failing schedule as a timeline, its replay string, the verdict.
extension VariantExploration {
    /// The exploration of one variant as text.
    ///
    /// By default (`verbose` false) the text is what a room reads at a glance: the heading, the
    /// verdict, the counts, the failing schedule and its replay line. `verbose` adds the search's
    /// settings and internals: the strategy and its bounds, the time per schedule, the distinct
    /// traces and states a reduction covered, PCT's guarantee, and what a step was in full.
    ///
    /// - Parameters:
    ///   - heading: the first line, naming what was explored.
    ///   - replayCommand: the line that replays the failing schedule, given its replay string
    ///     (`racelab explore 1 --variant buggy --replay 2:0.1.1.0@e6afab` on the command line).
    ///   - verbose: also the search's settings and internals, with the verdict last.
    ///   - width: the widest line (a replay command wraps with a trailing `\`, so that it still runs
    ///     as pasted); nil for no limit.
    ///   - states: the state before the failing schedule's first step, then after each step (as
    ///     `ExecutionResult.states` of its replay); shown under its timeline where it changes.
    ///     Ignored unless it has one entry more than the schedule has steps.
    public func text(
        heading: String,
        verbose: Bool = true,
        width: Int? = nil,
        states: [String] = [],
        replayCommand: (String) -> String = { $0 }
    ) -> String {
        var said = ExplorationTextMemory()
        return text(
            heading: heading,
            verbose: verbose,
            width: width,
            states: states,
            after: &said,
            replayCommand: replayCommand
        )
    }

    /// The exploration of one variant as text, after others of the same run: what `said` holds is
    /// not repeated (a verdict's scope equal to the one printed last reads `as above`; the line on
    /// what a step is and each line of the queue legend appear once a run). Adds what it says to `said`.
    public func text(
        heading: String,
        verbose: Bool = true,
        width: Int? = nil,
        states: [String] = [],
        after said: inout ExplorationTextMemory,
        replayCommand: (String) -> String = { $0 }
    ) -> String {
        let lines =
            verbose
            ? [heading] + bodyLines(replayCommand: replayCommand, verbose: true, states: states, said: &said)
                + [verdictLine(after: &said)]
            : [heading] + glanceLines(replayCommand: replayCommand, states: states, said: &said)
        guard let width else { return lines.joined(separator: "\n") + "\n" }
        return lines.flatMap { line -> [String] in
            if line.hasPrefix(Self.replayPrefix) {
                return wrappedCommand(
                    prefix: Self.replayPrefix,
                    command: String(line.dropFirst(Self.replayPrefix.count)),
                    width: width
                )
            }
            return line.contains("\n") ? [line] : wrapped(line, width: width)
        }
        .joined(separator: "\n") + "\n"
    }

    /// What starts the line that replays a schedule.
    static let replayPrefix = "  replay: "

    /// The text but the heading, at a glance: the verdict first, then the counts, what makes them
    /// less than they seem, and the failing schedule; a clean search says what a step was.
    func glanceLines(
        replayCommand: (String) -> String,
        states: [String] = [],
        said: inout ExplorationTextMemory
    ) -> [String] {
        // A failing schedule's verdict says what broke; its timeline follows under a bare title.
        var lines = [verdictLine(after: &said) + (failure.map { ": \($0.message)" } ?? "")]
        switch run {
        case .search(let report):
            // A verdict line that says what the search covered leaves the counts only the numbers.
            lines.append(Self.countsLine(report, covered: failure == nil || inconclusive))
            // What bounds a preemption-bounded search, and what a step is, in words, once a run:
            // above the first schedule shown, or under the first clean verdict.
            if report.isPreemptionBounded { lines += said.once([Self.preemptionMeaning(unit: unitName)]) }
            lines += said.once(["  each step: " + Self.step(of: report), Self.dataRaceInAStep])
            lines += said.once(Self.unmarkedPointsLine(failure?.steps ?? []).map { [$0] } ?? [])
        case .replay: lines.append(replayedLine)
        }
        return lines
            + scheduleSection(
                failureMessage: false,
                quiet: [],
                states: states,
                said: &said,
                replayCommand: replayCommand
            )
    }

    /// `  verdict: CLEAN (every schedule of 2 threads and the work they start, with at most 2
    /// preemptions)`: the verdict and, unless a failing schedule decided it, what the search covered.
    public var verdictLine: String {
        guard failure == nil || inconclusive, let scope = coverage else { return "  verdict: \(verdict)" }
        return "  verdict: \(verdict) (\(scope))"
    }

    /// The verdict line after others of a run: a scope equal to the one printed last reads `as above`.
    func verdictLine(after said: inout ExplorationTextMemory) -> String {
        guard failure == nil || inconclusive, let scope = coverage else { return verdictLine }
        defer { said.lastScope = scope }
        return said.lastScope == scope ? "  verdict: \(verdict) (the same scope as above)" : verdictLine
    }

    /// Everything but the heading and the verdict.
    func bodyLines(
        replayCommand: (String) -> String,
        verbose: Bool = true,
        states: [String] = [],
        said: inout ExplorationTextMemory
    ) -> [String] {
        var lines: [String]
        switch run {
        case .search(let report): lines = Self.searchLines(report, verbose: verbose)
        case .replay: lines = [replayedLine]
        }
        let granularityLines = granularity.map { ["  granularity: \($0)"] } ?? []
        return lines
            + scheduleSection(
                failureMessage: true,
                quiet: ["  no failing schedule"],
                afterError: granularityLines,
                states: states,
                said: &said,
                replayCommand: replayCommand
            )
    }

    /// The warnings, a stuck thread's diagnosis, and the schedule that decided the verdict: the
    /// failing one (with the failure's message when `failureMessage`), else the one that ended with
    /// an error, else `quiet`; a search without a failing schedule ends with `afterError`.
    private func scheduleSection(
        failureMessage: Bool,
        quiet: [String],
        afterError: [String] = [],
        states: [String] = [],
        said: inout ExplorationTextMemory,
        replayCommand: (String) -> String
    ) -> [String] {
        var lines = (warning ?? "").split(separator: "\n").map { "  warning: \($0)" }
        lines += (stall?.lines ?? []).map { "  \($0)" }
        if let failure {
            return lines
                + scheduleLines(
                    "FAILING SCHEDULE",
                    failure,
                    message: failureMessage,
                    states: states,
                    said: &said,
                    replayCommand: replayCommand
                )
        }
        if errorSchedules > 0 {
            lines.append(
                "  " + Self.counted(errorSchedules, "schedule") + " ended with an error thrown by a thread: "
                    + "an error, not the bug (treatingErrorsAsFailures() declares it the failure)"
            )
        }
        if let error {
            lines += scheduleLines("SCHEDULE WITH AN ERROR", error, said: &said, replayCommand: replayCommand)
        } else {
            lines += quiet
        }
        return lines + afterError
    }

    /// A search's settings and figures: the strategy and its bounds, the counts, the time.
    private static func searchLines(_ report: ExplorationReport, verbose: Bool) -> [String] {
        let strategy = report.strategy
        var setting = "  strategy \(strategy.rawValue), " + counted(report.threads, report.unitName) + ", "
        switch strategy {
        case .pct: setting += "\(report.preemptions) priority change points"
        case .random: setting += "a random \(report.unitName) at every point"
        case .dfs:
            setting += "at most \(report.preemptions) preemptions"
            if let reduction = report.reduction { setting += ", reduction \(reduction.rawValue)" }
        }
        if strategy.isSeeded { setting += ", seed \(report.seed)" }
        var lines = [setting, countsLine(report)]
        if verbose, let traces = report.tracesCovered {
            lines.append(
                "  " + counted(traces, "distinct trace") + ": schedules that differ only in the order of "
                    + "independent steps count as one"
            )
        }
        if let statesSearched = report.statesSearched, let redundantSchedules = report.redundantSchedules {
            lines.append(
                "  states: " + counted(statesSearched, "distinct state") + " decided at; "
                    + "\(grouped(redundantSchedules)) of the schedules ran on from one already searched"
            )
        }
        if verbose, strategy.searchesExhaustively { lines.append("  " + report.timing.perSchedule(report.schedules)) }
        if let pctGuarantee = report.pctGuarantee, let pctSteps = report.pctSteps {
            lines.append(
                "  pct guarantee >= 1/(n*k^(d-1)) = 1/(\(report.pctThreads ?? report.threads)*\(pctSteps)^"
                    + "\(report.preemptions)) = " + percent(pctGuarantee) + " per schedule; measured hit rate "
                    + percent(report.hitRate)
            )
        } else if strategy == .random {
            lines.append("  measured hit rate " + percent(report.hitRate))
        }
        return lines
    }

    /// What a preemption is, under the first line that bounds a search by them, in the search's
    /// `unit` (`thread` or `task`).
    static func preemptionMeaning(unit: String) -> String {
        "  a preemption: the explorer switches away from a \(unit) that could go on"
    }

    /// `198 schedules ran (all with at most 2 preemptions), 121 failed, in 0.079 s`: what ran,
    /// what part of the schedules within the bound that is, how many failed, the time in all.
    /// A search stopped by a stuck thread reached no limit: it says so, not "limit reached".
    /// `covered`: the verdict line above says what the search covered; an exhaustive search's
    /// counts then do not repeat it.
    private static func countsLine(_ report: ExplorationReport, covered: Bool = false) -> String {
        "  " + report.ranAndFailed(coverageSaid: covered) + ", in \(String(format: "%.3f", report.elapsedSeconds)) s"
            + (report.mergedShards.map { " (the sum of the wall times of " + counted($0, "shard") + ")" } ?? "")
    }

    /// `  replayed 1 schedule on 4 threads (the program's 2 and 2 started during the replay)`: what a
    /// replay ran, one thread per column of the schedule table below it (a started queue block or
    /// task has one).
    private var replayedLine: String {
        let started = (failure ?? error)?.spawned?.count ?? 0
        return "  replayed 1 schedule on " + Self.counted(threads + started, unitName)
            + (started > 0
                ? " (the program's \(grouped(threads)) and \(grouped(started)) started during the replay)" : "")
    }

    /// What the schedule table calls its columns: `task` when the program's units ran as Swift
    /// tasks (async bodies), `thread` otherwise, for a search and for a replay alike.
    package var unitName: String {
        switch run {
        case .search(let report): report.unitName
        case .replay(let result): result.isAsync || result.jobsWereSteps ? "task" : "thread"
        }
    }

    /// What the explorer leaves to ThreadSanitizer, under what a step is.
    static let dataRaceInAStep = "  a data race inside a step is ThreadSanitizer's to find"

    /// What the names of the points the explorer sees without a mark mean, for those that name a step
    /// of `steps`; nil if none does.
    package static func unmarkedPointsLine(_ steps: [ScheduleStep]) -> String? {
        let meanings: [(matches: (String) -> Bool, text: String)] = [
            ({ $0 == "start" || $0 == "start Task" }, "start = a task begins"),
            ({ $0 == "resume" || $0.hasPrefix("resume ") }, "resume = after an await"),
            ({ $0 == "run actor queue" }, "run actor queue = an actor job"),
            ({ $0 == "wake after sleep" || $0 == "start sleep" }, "wake after sleep = a sleep ends"),
        ]
        let names = Set(steps.map(\.operation))
        let present = meanings.filter { meaning in names.contains(where: meaning.matches) }.map(\.text)
        return present.isEmpty ? nil : "  unmarked points: " + present.joined(separator: "; ")
    }

    /// What a step was and what names it, in a few words (`granularity` says it in full).
    private static func step(of report: ExplorationReport) -> String {
        report.jobsWereSteps
            ? "one Swift concurrency job, named after its kind"
            : "code from one scheduling point to the next, named after the point it starts at"
    }

    /// One schedule as a timeline with its replay line.
    private func scheduleLines(
        _ title: String,
        _ schedule: Failure,
        message: Bool = true,
        states: [String] = [],
        said: inout ExplorationTextMemory,
        replayCommand: (String) -> String
    ) -> [String] {
        // Where the code saw the failure, on the title line: the row it names is marked `✗`.
        let seen = schedule.failureSeen.map { "; seen broken at step \($0.step) ✗: \($0.what)" } ?? ""
        var lines = [
            "",
            "  \(title) (" + Self.counted(schedule.steps.count, "step") + seen + ")"
                + (message ? ": \(schedule.message)" : ""),
        ]
        let spawned = schedule.spawned ?? []
        lines.append(
            TimelineText.render(
                schedule.steps,
                threads: threads + spawned.count,
                indent: "    ",
                unit: unitName,
                marked: schedule.failureSeen?.step
            )
        )
        for thread in spawned { lines.append("    " + TimelineText.legend(thread, unit: unitName)) }
        // Each name once a run: a later schedule's names on another queue (`documents barrier` after
        // `storage barrier`) get a line of their own, its names already explained none.
        let operations = schedule.steps.map(\.operation)
        let unexplained = { (name: String) in !said.has("queue legend: " + name) }
        let legend = Self.queueLegend(
            operations: operations.filter(unexplained),
            threadNames: spawned.map(\.name).filter(unexplained)
        )
        for (_, line) in legend { lines += wrapped("    " + line, hang: "      ") }
        for name in operations + spawned.map(\.name) { _ = said.isFirst("queue legend: " + name) }
        lines += Self.stateLines(states, steps: schedule.steps.count)
        lines.append("")
        lines.append(Self.replayPrefix + replayCommand(schedule.replay))
        return lines
    }

    /// The state at the start and after each step that changes it, one part of it a line (a state
    /// `store holds [] · thread 0 read [] → will write [item-0]` has two), each part whole: a long
    /// one goes on under itself. None unless `states` has one entry more than there are `steps`.
    static func stateLines(_ states: [String], steps: Int) -> [String] {
        guard states.count == steps + 1, steps > 0 else { return [] }
        var lines = ["    state at the start and after each step that changes it:"]
        let label = "step \(steps)".count + 2
        var previous: String?
        for (index, state) in states.enumerated() where state != previous {
            previous = state
            let name = index == 0 ? "start" : "step \(index)"
            let hang = String(repeating: " ", count: 6 + label)
            for (number, part) in state.components(separatedBy: " · ").enumerated() {
                let lead = number == 0 ? "      " + name.padding(toLength: label, withPad: " ", startingAt: 0) : hang
                lines += wrapped(lead + part, hang: hang + "  ")
            }
        }
        return lines
    }

    /// What the steps named after a `RaceQueue` mean, for the kinds among `operations` (a
    /// schedule's steps, `sync storage`) and `threadNames` (its spawned threads, `storage barrier`):
    /// a reader sees them without knowing the explorer's naming. Each line names the steps it
    /// explains as the schedule names them (`sync storage: the thread waits until queue storage has
    /// run its block`). `racelab explore` prints it under a failing schedule, `racelab play` beside
    /// the steps it offers (`explore` each name once a run, passing only those not explained yet;
    /// `play` each kind once a session).
    ///
    /// - Returns: one line per kind present (`kind`: `sync`, `async`, `item` or `barrier`), none
    ///   when no step or thread is a queue's.
    package static func queueLegend(
        operations: [String],
        threadNames: [String]
    ) -> [(kind: String, line: String)] {
        /// The distinct names among `names`, in order of appearance, and the queue they name
        /// (`queue storage`), or `several` when they name more than one.
        func named(_ names: [String], several: String, queue: (String) -> String) -> (names: String, queue: String) {
            var seen: Set<String> = []
            let distinct = names.filter { seen.insert($0).inserted }
            let queues = Set(distinct.map(queue))
            return (distinct.joined(separator: ", "), queues.count == 1 ? queues.map { "queue \($0)" }[0] : several)
        }
        /// `sync storage`, `sync barrier storage` → `storage`.
        func queueNamed(byOperation name: String) -> String {
            let words = name.split(separator: " ").dropFirst()
            return (words.first == "barrier" && words.count > 1 ? words.dropFirst() : words).joined(separator: " ")
        }
        var legend: [(kind: String, line: String)] = []
        let syncs = operations.filter { $0.hasPrefix("sync ") }
        if !syncs.isEmpty {
            let (names, queue) = named(syncs, several: "that queue", queue: queueNamed(byOperation:))
            legend.append(("sync", "\(names): the thread waits until \(queue) has run its block"))
        }
        let asyncs = operations.filter { $0.hasPrefix("async ") }
        if !asyncs.isEmpty {
            let (names, queue) = named(asyncs, several: "that queue", queue: queueNamed(byOperation:))
            legend.append(("async", "\(names): the thread hands a block to \(queue) and goes on"))
        }
        let items = threadNames.filter { $0.hasSuffix(" item") }
        if !items.isEmpty {
            let (names, queue) = named(items, several: "its queue") { String($0.dropLast(" item".count)) }
            legend.append(("item", "\(names): a block that \(queue) runs"))
        }
        let barriers = threadNames.filter { $0.hasSuffix(" barrier") }
        if !barriers.isEmpty {
            let (names, queue) = named(barriers, several: "its queue") { String($0.dropLast(" barrier".count)) }
            legend.append(("barrier", "\(names): a block that \(queue) runs alone (a barrier)"))
        }
        return legend
    }

    /// `1 schedule`, `6 schedules`, `1,336 schedules`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)" + (count == 1 ? "" : "s")
    }

    private static func percent(_ value: Double) -> String {
        String(format: "%.2f%%", value * 100)
    }
}

extension ExplorationReport {
    /// The search as text, the way `racelab explore` prints it minus the variant's heading and
    /// verdict (a bare report does not know whether a failing schedule was wanted): the strategy and
    /// its bounds, the counts, and the shortest failing schedule as a timeline with its replay string.
    public var text: String {
        let entry = VariantExploration(name: "", kind: .fixed, report: self)
        var said = ExplorationTextMemory()
        return entry.bodyLines(replayCommand: { $0 }, said: &said).joined(separator: "\n") + "\n"
    }
}

/// What the texts of the explorations printed earlier in one run said, so that a later one need not
/// say it again: the verdict's scope printed last, the line on what a step is, the queue legend.
public struct ExplorationTextMemory: Sendable {
    /// The scope of the verdict printed last, if any.
    var lastScope: String?
    /// The lines said once a run that were said.
    private var said: Set<String> = []

    /// Nothing said yet: the start of a run.
    public init() {}

    /// Of `lines`, those not said before; all of them count as said from now on.
    mutating func once(_ lines: [String]) -> [String] {
        lines.filter { said.insert($0).inserted }
    }

    /// Whether what `key` names (a kind of legend line) is said here for the first time in the run;
    /// it counts as said from now on.
    mutating func isFirst(_ key: String) -> Bool {
        said.insert(key).inserted
    }

    /// Whether what `key` names was said earlier in the run.
    func has(_ key: String) -> Bool {
        said.contains(key)
    }
}

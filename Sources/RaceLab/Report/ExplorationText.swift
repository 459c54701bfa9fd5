import Foundation

/// The explorer's text, as `racelab explore` prints it and as a failed test expectation reports it:
/// the settings, the counts, the failing schedule as a timeline, its replay string, the verdict.
extension VariantExploration {
    /// The exploration of one variant as text.
    ///
    /// - Parameters:
    ///   - heading: the first line, naming what was explored.
    ///   - replayCommand: the line that replays the failing schedule, given its replay string
    ///     (`racelab explore 1 --variant buggy --replay 2:0.1.1.0@e6afab` on the command line).
    ///   - verbose: also the time per schedule and the count of distinct traces.
    ///   - width: the widest line, but for the replay line (one command, to copy whole); nil for no limit.
    public func text(
        heading: String,
        verbose: Bool = true,
        width: Int? = nil,
        replayCommand: (String) -> String = { $0 }
    ) -> String {
        let lines = [heading] + bodyLines(replayCommand: replayCommand, verbose: verbose) + [verdictLine]
        guard let width else { return lines.joined(separator: "\n") + "\n" }
        return lines.flatMap { $0.hasPrefix("  replay: ") || $0.contains("\n") ? [$0] : wrapped($0, width: width) }
            .joined(separator: "\n") + "\n"
    }

    /// `  verdict: CLEAN (every schedule of 2 threads with at most 2 preemptions, reduction none)`: the verdict and,
    /// unless a failing schedule decided it, what the search covered.
    public var verdictLine: String {
        guard failure == nil || inconclusive, let scope else { return "  verdict: \(verdict)" }
        return "  verdict: \(verdict) (\(scope))"
    }

    /// Everything but the heading and the verdict.
    func bodyLines(replayCommand: (String) -> String, verbose: Bool = true) -> [String] {
        var lines: [String]
        switch run {
        case .search(let report): lines = Self.searchLines(report, verbose: verbose)
        case .replay: lines = ["  replayed 1 schedule on " + Self.counted(threads, "thread")]
        }
        for line in (warning ?? "").split(separator: "\n") { lines.append("  warning: \(line)") }
        for line in stall?.lines ?? [] { lines.append("  \(line)") }
        if let failure {
            lines += scheduleLines("FAILING SCHEDULE", failure, replayCommand: replayCommand)
        } else {
            if errorSchedules > 0 {
                lines.append(
                    "  " + Self.counted(errorSchedules, "schedule") + " ended with an error thrown by a thread: "
                        + "an error, not the bug (treatingErrorsAsFailures() declares it the failure)"
                )
            }
            if let error {
                lines += scheduleLines("SCHEDULE WITH AN ERROR", error, replayCommand: replayCommand)
            } else {
                lines.append("  no failing schedule")
            }
            if let granularity { lines.append("  granularity: \(granularity)") }
        }
        return lines
    }

    /// A search's settings and figures: the strategy and its bounds, the counts, the time.
    private static func searchLines(_ report: ExplorationReport, verbose: Bool) -> [String] {
        let strategy = report.strategy
        var setting = "  strategy \(strategy.rawValue), " + counted(report.threads, "thread") + ", "
        switch strategy {
        case .pct: setting += "\(report.preemptions) priority change points"
        case .random: setting += "a random thread at every point"
        case .dfs:
            setting += "at most \(report.preemptions) preemptions"
            if let reduction = report.reduction { setting += ", reduction \(reduction.rawValue)" }
        }
        if strategy.isSeeded { setting += ", seed \(report.seed)" }
        var lines = [setting]
        // A search stopped by a stuck thread reached no limit: it says so, not "limit reached".
        let reduced = report.reduction.map { $0 != .none } ?? false
        let scope =
            report.exhaustive
            ? reduced ? " (every behaviour within the bound)" : " (every schedule within the bound)"
            : report.abandoned != nil
                ? report.stall != nil ? " (stopped: a thread got stuck)" : " (stopped: a livelock)"
                : report.stoppedAfterFailure.map {
                    $0 == 0
                        ? " (stopped at the first failing schedule)"
                        : " (stopped " + counted($0, "schedule") + " after the first failing one, the shortest kept)"
                }
                    ?? (strategy.searchesExhaustively ? " (schedule limit reached, not exhaustive)" : "")
        lines.append(
            "  " + counted(report.schedules, "schedule") + "\(scope), \(report.failingSchedules) of them failing, in "
                + "\(String(format: "%.3f", report.elapsedSeconds)) s"
                + (report.mergedShards.map { " (the sum of the wall times of " + counted($0, "shard") + ")" } ?? "")
        )
        if verbose, let traces = report.tracesCovered {
            lines.append(
                "  " + counted(traces, "distinct trace") + ": schedules that differ only in the order of "
                    + "independent steps count as one"
            )
        }
        if let statesSearched = report.statesSearched, let redundantSchedules = report.redundantSchedules {
            lines.append(
                "  states: " + counted(statesSearched, "distinct state") + " decided at; "
                    + "\(redundantSchedules) of the schedules ran on from one already searched"
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

    /// One schedule as a timeline with its replay line.
    private func scheduleLines(_ title: String, _ schedule: Failure, replayCommand: (String) -> String) -> [String] {
        var lines = ["", "  \(title) (" + Self.counted(schedule.steps.count, "step") + "): \(schedule.message)"]
        let spawned = schedule.spawned ?? []
        lines.append(TimelineText.render(schedule.steps, threads: threads + spawned.count, indent: "    "))
        for thread in spawned { lines.append("    \(thread)") }
        lines.append("")
        lines.append("  replay: " + replayCommand(schedule.replay))
        return lines
    }

    /// `1 schedule`, `6 schedules`.
    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
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
        return entry.bodyLines(replayCommand: { $0 }).joined(separator: "\n") + "\n"
    }
}

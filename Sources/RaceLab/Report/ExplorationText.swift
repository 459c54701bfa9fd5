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
        var lines: [String] = []
        if mode == .replay {
            lines.append("  replayed 1 schedule on " + counted(threads, "thread"))
        } else {
            var setting = "  strategy \(strategy?.rawValue ?? "?"), " + counted(threads, "thread") + ", "
            switch strategy {
            case .pct: setting += "\(preemptions ?? 0) priority change points"
            case .random: setting += "a random thread at every point"
            case .dfs, nil:
                setting += "at most \(preemptions ?? 0) preemptions"
                if let reduction { setting += ", reduction \(reduction.rawValue)" }
            }
            if let seed { setting += ", seed \(seed)" }
            lines.append(setting)
            // A search stopped by a stuck thread reached no limit: it says so, not "limit reached".
            let reduced = reduction.map { $0 != .none } ?? false
            let scope =
                exhaustive
                ? reduced ? " (every behaviour within the bound)" : " (every schedule within the bound)"
                : stopped != nil
                    ? stall != nil ? " (stopped: a thread got stuck)" : " (stopped: a livelock)"
                    : stoppedAfterFailure.map {
                        $0 == 0
                            ? " (stopped at the first failing schedule)"
                            : " (stopped " + counted($0, "schedule")
                                + " after the first failing one, the shortest kept)"
                    }
                        ?? (strategy?.searchesExhaustively == true ? " (schedule limit reached, not exhaustive)" : "")
            lines.append(
                "  " + counted(schedules, "schedule") + "\(scope), \(failingSchedules) of them failing, in "
                    + "\(String(format: "%.3f", elapsedSeconds)) s"
            )
            if verbose, let traces {
                lines.append(
                    "  " + counted(traces, "distinct trace") + ": schedules that differ only in the order of "
                        + "independent steps count as one"
                )
            }
            if let statesSearched, let redundantSchedules {
                lines.append(
                    "  states: " + counted(statesSearched, "distinct state") + " decided at; "
                        + "\(redundantSchedules) of the schedules ran on from one already searched"
                )
            }
            if verbose, let timing { lines.append("  " + timing.perSchedule(schedules)) }
            if let pctGuarantee, let pctSteps, let preemptions {
                lines.append(
                    "  pct guarantee >= 1/(n*k^(d-1)) = 1/(\(pctThreads ?? threads)*\(pctSteps)^\(preemptions)) = "
                        + percent(pctGuarantee) + " per schedule; measured hit rate " + percent(hitRate)
                )
            } else if strategy == .random {
                lines.append("  measured hit rate " + percent(hitRate))
            }
        }
        for line in (warning ?? "").split(separator: "\n") { lines.append("  warning: \(line)") }
        for line in stall?.lines ?? [] { lines.append("  \(line)") }
        if let failure {
            lines += scheduleLines("FAILING SCHEDULE", failure, replayCommand: replayCommand)
        } else {
            if let errorSchedules, errorSchedules > 0 {
                lines.append(
                    "  " + counted(errorSchedules, "schedule") + " ended with an error thrown by a thread: "
                        + "an error, not the bug (treatingErrorsAsFailures() declares it the failure)"
                )
            }
            if let error {
                lines += scheduleLines("SCHEDULE WITH AN ERROR", error, replayCommand: replayCommand)
            } else {
                lines.append("  no failing schedule")
            }
            if let granularity, mode == .search { lines.append("  granularity: \(granularity)") }
        }
        return lines
    }

    /// One schedule as a timeline with its replay line.
    private func scheduleLines(_ title: String, _ schedule: Failure, replayCommand: (String) -> String) -> [String] {
        var lines = ["", "  \(title) (" + counted(schedule.steps.count, "step") + "): \(schedule.message)"]
        let spawned = schedule.spawned ?? []
        lines.append(TimelineText.render(schedule.steps, threads: threads + spawned.count, indent: "    "))
        for thread in spawned { lines.append("    \(thread)") }
        lines.append("")
        lines.append("  replay: " + replayCommand(schedule.replay))
        return lines
    }

    /// `1 schedule`, `6 schedules`.
    private func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)" + (count == 1 ? "" : "s")
    }

    private func percent(_ value: Double) -> String {
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

import Foundation
import RaceLab

/// What the test-framework functions (`expectClean`, `assertClean`, ...) share: run the check, judge
/// it, and word the failure. The frameworks only decide how a failure is recorded.
enum RaceLabCheck {
    /// The workload of a variant that declares none and was given none: 100 trials of 500
    /// concurrent operations, a few seconds for a cheap operation in a debug build.
    static let defaultWorkload = Workload(trials: 100, iterations: 500)

    /// Schedules `expectFailingSchedule` runs after the first failing one, looking for a shorter
    /// failure, unless its options say otherwise (`ExplorationOptions.schedulesAfterFailure`).
    static let schedulesAfterFailure = 100

    /// What a framework records of a check: its failures as issues, its warnings as warnings, and,
    /// with a failure, its report as a JSON attachment.
    protocol Outcome {
        var failures: [String] { get }
        var warnings: [String] { get }
        /// The report to attach to a failure and its file name; nil when nothing ran.
        var attachment: (report: any Encodable, name: String)? { get }
    }

    /// A stress run's report, the failures to record when its verdict is not `kind`'s, and the
    /// warnings to record when it passed on less than it seems.
    struct Stress: Outcome {
        var report: VariantReport
        /// Messages to record, each one issue: a malformed pin, then the verdict's failure.
        var failures: [String]
        /// Messages to record as warnings: a pass in which no race window was reached.
        var warnings: [String] = []

        var attachment: (report: any Encodable, name: String)? { (report, "\(report.name).json") }
    }

    /// Runs `variant` under the stress runner, judged as `kind`.
    ///
    /// - Parameter timeLimit: nil runs the whole workload (`expectClean`). Given, trials run until
    ///   one shows an anomaly or the time is spent (`expectReproduced`); a workload given by the
    ///   caller is a floor the time limit never cuts (on a loaded machine its trials take longer,
    ///   and fewer of them would make a check that passed before flaky).
    static func stress(
        _ variant: Variant,
        as kind: VariantKind,
        workload: Workload?,
        seed explicitSeed: UInt64?,
        noise: Bool,
        timeLimit: Duration? = nil,
        caller: String = #function
    ) async -> Stress {
        let function = checkName(caller)
        var failures: [String] = []
        let seed: UInt64
        do {
            seed = try RaceLabPins.resolvedSeed(explicitSeed)
        } catch {
            failures.append("\(function): \(error); ran with a random seed instead")
            seed = UInt64.random(in: 1...UInt64(UInt32.max))
        }
        let judged = variant.judged(as: kind)
        var options = StressRunner.Options(
            workload: workload ?? variant.workload ?? defaultWorkload,
            seed: seed,
            noise: noise
        )
        if let timeLimit {
            options.minimumTrials = workload?.trials ?? 1
            options.workload.trials = Int.max
            options.timeBudget = seconds(timeLimit)
            options.stopsAtFirstAnomaly = true
        }
        let report = await StressRunner.run(judged, options: options)
        if !report.passed {
            let what =
                switch report.verdict {
                case .failed: "'\(variant.name)' is not clean"
                case .notReproduced:
                    "'\(variant.name)' did not reproduce its bug"
                        + (timeLimit.map { " in \(report.trials) trials (\(seconds($0)) s allowed)" } ?? "")
                case .error: "'\(variant.name)' could not be checked: errors, not evidence either way"
                default: "'\(variant.name)' got \(report.verdict.label)"
                }
            failures.append(
                "\(function): \(what) (\(report.verdict.label))\n" + report.text + seedLine(seed, noise: noise)
            )
        }
        var warnings: [String] = []
        if report.passed, kind == .fixed, report.windowsReached == 0 {
            warnings.append(
                "\(function): '\(variant.name)' is clean, but its \(report.trials) trials of "
                    + "\(report.iterations) iterations reached no race window, so noise could not widen one: "
                    + "the pass rests on the operating system's scheduler alone; mark the window with "
                    + "`Race.window`, or explore the code (expectNoFailingSchedule)"
            )
        }
        return Stress(report: report, failures: failures, warnings: warnings)
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The name a failure message gives the check: the calling function's (`expectClean`, say), as
    /// `#function` spells it without its argument labels.
    static func checkName(_ function: String) -> String {
        String(function.prefix { $0 != "(" })
    }

    /// How to run the same noise decisions again.
    static func seedLine(_ seed: UInt64, noise: Bool) -> String {
        guard noise else { return "ran with noise off: a seed cannot pin what the scheduler alone decides" }
        return "same noise again: @Test(.raceLab(seed: \(seed))) or RACELAB_SEED=\(seed) swift test "
            + "(the operating system's scheduler still varies)"
    }

    /// An exploration's outcome: its report, the failing schedule if one was found, the failures.
    struct Search: Outcome {
        /// The search (or the pinned replay that decided the check); nil when nothing could run.
        var report: VariantExploration?
        var failingSchedule: Schedule?
        var failures: [String]
        /// A search passes or fails: it has nothing to warn of.
        var warnings: [String] { [] }

        var attachment: (report: any Encodable, name: String)? { report.map { ($0, "exploration.json") } }
    }

    /// Replays the pinned schedules, then (unless a pinned one already decided) searches.
    ///
    /// - Parameter wantFailure: true for `expectFailingSchedule`, false for `expectNoFailingSchedule`.
    static func explore(
        _ exploration: Exploration,
        options: ExplorationOptions,
        wantFailure: Bool,
        caller: String = #function
    ) async -> Search {
        let function = checkName(caller)
        let kind: VariantKind = wantFailure ? .buggy : .fixed
        var options = options
        // One failing schedule answers `expectFailingSchedule`: a few more look for a shorter one.
        if wantFailure, options.schedulesAfterFailure == nil { options.schedulesAfterFailure = schedulesAfterFailure }
        let heading = "exploration: \(exploration.summary)"
        let pinned: [Schedule]
        do {
            pinned = try RaceLabPins.resolvedReplays()
        } catch {
            return Search(report: nil, failingSchedule: nil, failures: ["\(function): \(error)"])
        }
        var notes: [String] = []
        // A pinned schedule that does not fit is an issue of its own, and the search still runs.
        var refused: [String] = []
        do {
            for schedule in pinned {
                let result: ExecutionResult
                do {
                    result = try await Explorer.replay(exploration, schedule: schedule, options: options)
                } catch let refusal as ReplayRefusal {
                    refused.append("\(function): the pinned schedule \(schedule) was refused: \(refusal.reason)")
                    continue
                }
                let entry = VariantExploration(name: "pinned", kind: kind, replayOf: result)
                guard result.isFailure else {
                    notes.append("note: pinned schedule \(schedule) ran first and did not fail (\(entry.verdict))")
                    continue
                }
                if wantFailure { return Search(report: entry, failingSchedule: result.schedule, failures: refused) }
                let message =
                    "\(function): the pinned schedule \(schedule) fails\n"
                    + entry.text(heading: heading, replayCommand: pinLine)
                return Search(report: entry, failingSchedule: result.schedule, failures: refused + [message])
            }
            let report = try await Explorer.explore(exploration, options: options)
            let entry = VariantExploration(name: "search", kind: kind, report: report)
            let text = entry.text(heading: heading, replayCommand: pinLine)
            let noted = notes.isEmpty ? "" : "\n" + notes.joined(separator: "\n")
            func search(_ failures: [String]) -> Search {
                Search(report: entry, failingSchedule: report.failure?.schedule, failures: refused + failures)
            }
            if let abandoned = report.abandoned {
                return Search(
                    report: entry,
                    failingSchedule: nil,
                    failures: refused + ["\(function): inconclusive, \(abandoned)\n" + text + noted]
                )
            }
            switch (wantFailure, report.failure) {
            case (true, .some): return search([])
            case (false, .some): return search(["\(function): a schedule fails\n" + text + noted])
            case (_, nil) where entry.verdict == "ERROR":
                return search([
                    "\(function): errors, not evidence either way: \(report.errorSchedules) schedules ended with "
                        + "an error thrown by a thread (ERROR)\n" + text + noted
                ])
            case (_, nil) where entry.inconclusive:
                return search([
                    "\(function): inconclusive, \(report.unfinishedSchedules) schedules did not finish within "
                        + "\(report.stepBound) steps (INCONCLUSIVE)\n" + text + noted
                ])
            case (true, nil): return search(["\(function): no failing schedule found\n" + text + noted])
            case (false, nil):
                guard report.notInterleaved != nil else { return search([]) }
                let what =
                    report.schedules == 1
                    ? "nothing was explored (one schedule ran): finding no failing schedule proves nothing"
                    : "some threads were never interleaved with the others: finding no failing schedule "
                        + "proves nothing about them"
                return search(["\(function): \(what)\n" + text + noted])
            }
        } catch {
            return Search(
                report: nil,
                failingSchedule: nil,
                failures: refused + ["\(function): the exploration could not be set up: \(error)"]
            )
        }
    }

    /// The replay line of a failing schedule: the string and the two ways to pin it.
    static func pinLine(_ replay: String) -> String {
        "\(replay) (pin it: @Test(.raceLabReplay(\"\(replay)\")) or RACELAB_REPLAY=\(replay) swift test)"
    }

    /// A report as JSON, for attachments: in the format of `racelab`'s `--json` documents.
    static func json(_ value: some Encodable) -> String? {
        try? JSONText.encode(value)
    }
}

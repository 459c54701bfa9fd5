import Foundation

extension IsolatedRun {
    /// One variant's run over one or more children: the trials that finished, summed over the
    /// children, and the trials in which a child died.
    ///
    /// A child that dies in a trial left the report of the trials it finished (`ChildMessage.progress`);
    /// the next child starts at the trial after the crash, numbered as in the whole run, so the crash
    /// loses only its own trial. The verdict follows the rules of a run in one child: a buggy variant
    /// is REPRODUCED by a trial that finished with the bug's signature, or by a crash while its own
    /// code ran (`Variant.crashMeansReproduced`); a crash in the check is never evidence; any crash
    /// of a fixed variant makes it CRASHED, whatever its other trials showed.
    struct ContinuedRun {
        let request: Request
        /// The trials that finished in every child so far, summed; nil before any finished.
        private var finished: VariantReport?
        /// The trials whose child died, in order.
        private(set) var crashes: [VariantReport.CrashedTrial] = []
        /// The children's wall time, summed.
        private(set) var wallSeconds = 0.0
        /// The index of the next trial to run.
        private(set) var nextTrial = 0
        /// The last crash's stderr.
        private var stderr: [String] = []

        init(request: Request) {
            self.request = request
        }

        /// The seconds of the time budget left for the next child; nil without a budget.
        var remainingBudget: Double? {
            request.options.timeBudget.map { $0 - wallSeconds }
        }

        /// Whether a fresh child runs the trials after the last crash: some are left, the crash
        /// limit is not reached, the time budget is not spent, and the run was not interrupted.
        var goesOn: Bool {
            nextTrial < request.options.workload.trials && crashes.count < VariantReport.crashLimit
                && (remainingBudget ?? 1) > 0 && ChildProcess.interruptingSignal == nil
        }

        /// Records that a child died from `signal` in the trial after those `progress` reports
        /// (the trials it finished; nil when it finished none).
        mutating func crashed(
            signal: Int,
            whileChecking: Bool,
            progress: VariantReport?,
            wall: Double,
            stderr: [String]
        ) {
            if let progress, progress.trials > 0 { add(progress) }
            nextTrial += (progress?.trials ?? 0) + 1
            crashes.append(.init(trial: nextTrial, signal: signal, whileChecking: whileChecking))
            wallSeconds += wall
            self.stderr = stderr
        }

        /// The report once the last child reported `report`: that report itself when no child died.
        mutating func finished(_ report: VariantReport, wall: Double) -> VariantReport {
            guard !crashes.isEmpty else { return report }
            add(report)
            wallSeconds += wall
            return self.report()
        }

        /// The report once a child ended as `failure` says (a timeout, an exit without a report, a
        /// failed start): that report itself when no child died before it.
        func ended(by failure: VariantReport) -> VariantReport {
            crashes.isEmpty ? failure : report(failure: failure)
        }

        /// The report of the trials that finished and those that crashed, with its verdict.
        func report(failure: VariantReport? = nil) -> VariantReport {
            let variant = request.variant
            var report = finished ?? IsolatedRun.emptyReport(request)
            report.crashed = true
            report.crashedTrials = crashes
            report.signal = failure?.signal ?? crashes.last?.signal
            report.exitStatus = failure?.exitStatus
            report.timedOut = failure?.timedOut ?? false
            report.timeoutSeconds = request.timeout
            report.stderrTail = failure?.stderrTail ?? stderr
            report.wallSeconds = wallSeconds + (failure?.wallSeconds ?? 0)
            report.operationsPerSecond =
                report.wallSeconds > 0 ? Double(report.operations) / report.wallSeconds : 0
            let crashEvidence = variant.kind == .buggy && crashes.contains { !$0.whileChecking }
            if variant.kind == .buggy && (report.anomalousTrials > 0 || crashEvidence) {
                report.verdict = .reproduced
            } else if let failure, failure.verdict != .reproduced {
                report.verdict = failure.verdict
            } else {
                report.verdict = .crashed
            }
            report.verdictReason = reason(report, crashEvidence: crashEvidence, failure: failure)
            return report
        }

        /// What the finished trials showed, which trials crashed and from what, and what ended the
        /// run early, if anything did.
        private func reason(_ report: VariantReport, crashEvidence: Bool, failure: VariantReport?) -> String {
            var parts: [String] = []
            let finished = report.trials
            if finished > 0 {
                let those =
                    finished == 1 ? "the 1 trial that finished" : "the \(grouped(finished)) trials that finished"
                let anomalous = report.anomalousTrials
                let share = finished == 1 ? those : "\(grouped(anomalous)) of \(those)"
                parts.append(
                    anomalous == 0
                        ? "no anomaly in \(those)"
                        : request.variant.kind == .buggy ? "the bug showed in \(share)" : "anomalies in \(share)"
                )
                if report.errorTrials > 0 {
                    parts.append("\(grouped(report.errorTrials)) of them had errors (not evidence of the bug)")
                }
            }
            let ran = report.trialsRun
            let died =
                crashes.count == ran
                ? (ran == 1 ? "its 1 trial run died" : "all \(grouped(ran)) trials run died")
                : "\(grouped(crashes.count)) of the \(grouped(ran)) trials run died"
            // One group per signal and phase, in the order they first came: `trials 3 and 9 from signal 11
            // (SIGSEGV)`.
            var groups: [(signal: Int, whileChecking: Bool, trials: [Int])] = []
            for crash in crashes {
                if let index = groups.firstIndex(where: {
                    $0.signal == crash.signal && $0.whileChecking == crash.whileChecking
                }) {
                    groups[index].trials.append(crash.trial)
                } else {
                    groups.append((crash.signal, crash.whileChecking, [crash.trial]))
                }
            }
            let each = groups.map { group in
                let number = Int32(group.signal)
                let one = group.trials.count == 1
                return Self.trialList(group.trials) + " from signal \(number) (\(signalName(number)))"
                    + (group.whileChecking ? (one ? " while checking it" : " while checking them") : "")
            }
            var crashPart = died + ": " + each.joined(separator: ", ")
            if crashEvidence {
                crashPart +=
                    crashes.contains(where: \.whileChecking)
                    ? "; outside the check, memory corrupted by the race" : ", memory corrupted by the race"
            }
            parts.append(crashPart)
            let asked = request.options.workload.trials
            if let failure {
                let range = nextTrial + 1 < asked ? "trials \(nextTrial + 1)–\(asked)" : "trial \(nextTrial + 1)"
                parts.append("then, for \(range) in a fresh process: \(failure.verdictReason)")
            } else if crashes.count >= VariantReport.crashLimit && ran < asked {
                parts.append(
                    "after \(VariantReport.crashLimit) crashes no fresh process ran the other "
                        + "\(grouped(asked - ran)) trials"
                )
            }
            return parts.joined(separator: "; ")
        }

        /// `trial 3`, `trials 3 and 9`, `trials 1, 2 and 5`.
        static func trialList(_ trials: [Int]) -> String {
            let numbers = trials.map(grouped)
            guard let last = numbers.last, numbers.count > 1 else { return "trial " + (numbers.first ?? "") }
            return "trials " + numbers.dropLast().joined(separator: ", ") + " and " + last
        }

        /// Adds the trials `report` counts (numbered in the whole run) to those that finished.
        private mutating func add(_ report: VariantReport) {
            guard var sum = finished else {
                var first = report
                first.secondsToFirstAnomaly = report.secondsToFirstAnomaly.map { $0 + wallSeconds }
                finished = first
                return
            }
            sum.trials += report.trials
            sum.operations += report.operations
            sum.anomalousTrials += report.anomalousTrials
            sum.errorTrials += report.errorTrials
            sum.lostWrites += report.lostWrites
            sum.inconsistencies += report.inconsistencies
            sum.duplicates += report.duplicates
            sum.errors += report.errors
            sum.histogram = Self.merged(sum.histogram, report.histogram, trials: sum.trials)
            sum.samples = Self.samples(sum.samples + report.samples, leading: request.variant.leadingSample)
            if sum.firstAnomalousTrial == nil, let trial = report.firstAnomalousTrial {
                sum.firstAnomalousTrial = trial
                sum.secondsToFirstAnomaly = report.secondsToFirstAnomaly.map { $0 + wallSeconds }
            }
            if sum.windowsReached != nil || report.windowsReached != nil {
                sum.windowsReached = (sum.windowsReached ?? 0) + (report.windowsReached ?? 0)
            }
            if let tallies = report.tallies {
                var all = sum.tallies ?? []
                all.add(tallies)
                sum.tallies = all
            }
            finished = sum
        }

        /// The rows of two histograms of the same variant as one, frequencies over `trials`.
        ///
        /// Each list is in outcome order (`HistogramBuilder.rows`); an outcome only `later` has goes
        /// right after the outcome that precedes it there, or first among its expectation's rows.
        static func merged(_ earlier: [HistogramRow], _ later: [HistogramRow], trials: Int) -> [HistogramRow] {
            var rows = earlier
            var previous: String?
            for row in later {
                if let index = rows.firstIndex(where: { $0.outcome == row.outcome }) {
                    rows[index].samples += row.samples
                } else if let previous, let index = rows.firstIndex(where: { $0.outcome == previous }),
                    rows[index].expectation == row.expectation
                {
                    rows.insert(row, at: index + 1)
                } else {
                    let index = rows.firstIndex { $0.expectation == row.expectation } ?? rows.count
                    rows.insert(row, at: index)
                }
                previous = row.outcome
            }
            let order: [HistogramRow.Expectation] = [.acceptable, .forbidden, .error]
            let sorted = order.flatMap { expectation in rows.filter { $0.expectation == expectation } }
            return sorted.map { row in
                var row = row
                row.frequency = trials > 0 ? Double(row.samples) / Double(trials) : 0
                return row
            }
        }

        /// The first five samples, the first that starts with `leading` first, as `StressRunner` keeps them.
        static func samples(_ all: [String], leading: String?) -> [String] {
            var kept = Array(all.prefix(5))
            if let leading, kept.first?.hasPrefix(leading) != true,
                let sample = all.first(where: { $0.hasPrefix(leading) })
            {
                kept.removeAll { $0 == sample }
                kept.insert(sample, at: 0)
            }
            return Array(kept.prefix(5))
        }
    }
}

import Foundation

/// Renders reports for a terminal: a block per variant with its numbers, outcome histogram and
/// verdict, and a summary line per lesson. No line is wider than `reportWidth` columns (a projector's
/// terminal): long lines wrap, a histogram too wide for its columns puts each meaning on its own line.
///
/// Not verbose, a variant whose verdict is the one its kind should get reads as its verdict line and
/// what decided it (`compactVariant(_:)`): a lesson of eleven variants must be readable at a glance.
/// Any other verdict gets the whole block, where the details are what the reader needs.
package struct TextReport {
    /// Whether the variants are a lesson's own rather than code a user checks. A lesson's fixed
    /// variant may rightly reach no race window (an actor has none), so there the advice to mark
    /// windows is given for buggy variants only; for a user's code it is given for every variant.
    package var lessonVariants: Bool

    /// Whether every variant gets its whole block (counts, outcome table, samples, stderr).
    package var verbose: Bool

    /// The words for a count where the lesson's own differ from its name (`Lesson.countLabels`).
    package var countLabels: [String: String]

    package init(lessonVariants: Bool = false, verbose: Bool = true, countLabels: [String: String] = [:]) {
        self.lessonVariants = lessonVariants
        self.verbose = verbose
        self.countLabels = countLabels
    }

    /// What this report calls the count `name` (`inconsistencies`): its label, else its name.
    func label(_ name: String) -> String {
        countLabels[name] ?? name
    }

    /// What the header says when variants are shown compactly.
    static let compactHint = "each variant's verdict and what decided it; --verbose: its counts, outcomes and samples"

    /// Histogram rows shown per variant; the JSON report has them all.
    static let histogramRows = 8

    package func header(lessonNumber: Int, title: String, seed: UInt64, noise: Bool, timeout: Double) -> String {
        wrappedText(
            """
            RaceLab · lesson \(lessonNumber): \(title)
            seed \(seed) · noise \(noise ? "on (seeded yields, spins and sleeps at race windows)" : "off") · \
            each variant in its own process, watchdog \(formatSeconds(timeout)) s\(verbose ? "" : "\n" + Self.compactHint)

            """
        )
    }

    /// A variant's block, or its compact lines (`compactVariant(_:)`).
    /// - Parameter counts: the counts its lesson measures (`Lesson.measuredCounts`); the block
    ///   leaves out the others when they are zero. Nil: all three.
    package func variant(_ report: VariantReport, counts: Set<String>? = nil) -> String {
        if isCompact(report) { return compactVariant(report) }
        var lines: [String] = []
        lines.append("▸ \(report.name) [\(report.kind.rawValue)] \(report.summary)")
        if let crashes = report.crashedTrials, !crashes.isEmpty {
            lines.append("  " + crashedTrialsLine(report, crashes: crashes))
        }
        if report.trials > 0 {
            // Totals come from the trials without errors only, so they are averaged over those.
            let counted = report.trials - report.errorTrials
            let perTrial = { (total: Int) in counted > 0 ? perTrialFigure(total, trials: counted) : "–" }
            let finished = report.crashedTrials?.isEmpty == false ? " finished" : ""
            lines.append(
                "  \(trialCount(report.trials))\(finished) × \(grouped(report.iterations)) iterations = "
                    + "\(grouped(report.operations)) operations in \(String(format: "%.2f", report.wallSeconds)) s "
                    + "(\(grouped(Int(report.operationsPerSecond.rounded()))) operations/s)"
            )
            lines.append(
                "  anomalous trials  \(grouped(report.anomalousTrials)) of \(grouped(report.trials)) "
                    + "(\(percent(Double(report.anomalousTrials) / Double(report.trials))))"
            )
            let shown = shownCounts(report, counts: counts)
            for (name, total) in Self.amounts(report) where shown.contains(name) {
                let label = label(name) + String(repeating: " ", count: max(1, 18 - label(name).count))
                lines.append("  \(label)\(grouped(total)) total, \(perTrial(total)) per trial")
            }
            if report.errors > 0 {
                lines.append(
                    "  errors            \(grouped(report.errors)) total, in \(grouped(report.errorTrials)) "
                        + "trial\(report.errorTrials == 1 ? "" : "s") (not evidence of the bug; those trials did not count)"
                )
            }
            if report.windowsReached == 0 && (!lessonVariants || report.kind == .buggy) {
                lines.append("  note: \(VariantReport.noWindowReached)")
            }
            lines = lines.flatMap { wrapped($0) }
            lines.append("")
            lines.append(contentsOf: histogram(report.histogram, width: reportWidth - 4).map { "    " + $0 })
            for sample in report.samples.prefix(3) {
                lines.append(contentsOf: wrapped("  e.g. \(sample)", hang: "       "))
            }
            for tally in report.tallies ?? [] { lines += wrapped("  \(tally.text)", hang: "    ") }
        } else if report.crashedTrials?.isEmpty != false {
            lines.append("  no report from the variant's process after \(String(format: "%.2f", report.wallSeconds)) s")
        }
        let mark = !report.decides ? "·" : report.passed ? "✓" : report.verdict == .error ? "!" : "✗"
        lines.append(contentsOf: wrapped("  \(mark) \(report.verdict.label): \(report.verdictReason)", hang: "    "))
        if let reason = report.unmeasured {
            lines.append(
                contentsOf: wrapped(
                    "  not counted on this system, so this verdict does not decide PASS or FAIL: "
                        + reason,
                    hang: "    "
                )
            )
        }
        if !report.stderrTail.isEmpty {
            lines.append("  its stderr ended with:")
            lines.append(
                contentsOf: report.stderrTail.flatMap { wrapped("    | " + $0, hang: "    |   ") }
            )
        }
        if report.trials == 0 { lines = lines.flatMap { wrapped($0) } }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many trials ran, finished and crashed, and which crashed:
    /// `40 trials ran: 38 finished, 2 crashed (trials 3 and 17)`.
    func crashedTrialsLine(_ report: VariantReport, crashes: [VariantReport.CrashedTrial]) -> String {
        let which = IsolatedRun.ContinuedRun.trialList(crashes.map(\.trial))
        return "\(trialCount(report.trialsRun)) ran: \(grouped(report.trials)) finished, "
            + "\(grouped(crashes.count)) crashed (\(which))"
    }

    /// A variant whose verdict is the expected one, in a few lines: its name and summary; the verdict
    /// with the amounts its trials lost, duplicated or found inconsistent, per trial; the outcome that
    /// decided it (the most frequent forbidden one when the bug showed, else the most frequent) and
    /// how many trials it covers; the first sample the variant described. When the bug showed in
    /// outcomes so scattered that the most frequent covers under a third of those trials, the line
    /// names the worst seen instead (the last forbidden row in outcome order, farthest from the
    /// correct result): the most frequent of many would show a mild outcome as the variant's.
    func compactVariant(_ report: VariantReport) -> String {
        var lines = wrapped("▸ \(report.name) [\(report.kind.rawValue)] \(report.summary)")
        let counted = report.trials - report.errorTrials
        let amounts = [
            (report.lostWrites, "lost writes"), (report.duplicates, "duplicates"),
            (report.inconsistencies, "inconsistencies"),
        ]
        .filter { $0.0 > 0 && counted > 0 }
        .map { perTrialFigure($0.0, trials: counted) + " " + label($0.1) }
        let anomalous = report.anomalousTrials > 0
        // The standard reasons, shortened; a crash after the trials that showed the bug keeps its own.
        let reason =
            report.crashed
            ? ": " + report.verdictReason
            : anomalous
                ? " in \(grouped(report.anomalousTrials)) of \(grouped(report.trials)) trials"
                : ": no anomaly in \(trialCount(report.trials))"
        var verdict = "  \(report.decides ? "✓" : "·") \(report.verdict.label)\(reason)"
        if !amounts.isEmpty {
            verdict +=
                " · mean per trial of \(grouped(report.iterations)) iterations: " + amounts.joined(separator: ", ")
        }
        lines += wrapped(verdict, hang: "    ")
        let candidates = report.histogram.filter { ($0.expectation == .forbidden) == anomalous }
        if var row = (candidates.isEmpty ? report.histogram : candidates).max(by: { $0.samples < $1.samples }) {
            // Which trials the row covers: those the verdict line counted when the bug showed, else all.
            let share: String
            if anomalous {
                let count = report.anomalousTrials
                if row.samples * 3 < count, let worst = candidates.last {
                    row = worst
                    share = "worst seen (\(grouped(row.samples)) of those \(grouped(count)))"
                } else {
                    share =
                        row.samples == count
                        ? (count == 1 ? "that trial" : "all \(grouped(count)) of them")
                        : "most often (\(grouped(row.samples)) of those \(grouped(count)))"
                }
            } else {
                share =
                    row.samples == report.trials
                    ? (report.trials == 1 ? "the only trial" : "all \(grouped(report.trials)) trials")
                    : "most often (\(grouped(row.samples)) of \(grouped(report.trials)) trials)"
            }
            lines += wrapped("    \(share): \(outcomeAndMeaning(row))" + otherTrials(report), hang: "      ")
        }
        if anomalous, let sample = report.samples.first {
            lines += wrapped("    e.g. \(sample)", hang: "         ")
        }
        for tally in report.tallies ?? [] { lines += wrapped("    \(tally.text)", hang: "      ") }
        if report.windowsReached == 0 && (!lessonVariants || report.kind == .buggy) {
            lines += wrapped("  note: \(VariantReport.noWindowReached)")
        }
        if let reason = report.unmeasured {
            lines += wrapped(
                "  not counted on this system, so this verdict does not decide PASS or FAIL: "
                    + reason,
                hang: "    "
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the trials without the bug ended with, when it showed in only some of them
    /// (`; in the other 1 of 40 trials: in order · …`), so that `REPRODUCED in 39 of 40 trials` does not leave the
    /// 40th unexplained; empty otherwise. Trials with an error are left to the error lines.
    func otherTrials(_ report: VariantReport) -> String {
        let clean = report.histogram.filter { $0.expectation == .acceptable }
        let count = clean.reduce(0) { $0 + $1.samples }
        guard report.anomalousTrials > 0, count > 0, let top = clean.max(by: { $0.samples < $1.samples }) else {
            return ""
        }
        // Out of all trials, said so: after `most often (135 of those 198)`, a bare `the other 2`
        // reads as the rest of the 198.
        let which =
            report.anomalousTrials + count == report.trials
            ? "in the other \(grouped(count)) of \(grouped(report.trials)) trials"
            : "in \(grouped(count)) of \(grouped(report.trials)) trials, without it"
        let what = top.samples == count ? top.outcome : "most often \(top.outcome) (\(grouped(top.samples)))"
        return "; \(which): \(what)"
    }

    /// `outcome → meaning`, or the meaning alone when it already says the outcome
    /// (`500–599/1,000` is `500–599 of 1,000 keys kept, the others lost`).
    func outcomeAndMeaning(_ row: HistogramRow) -> String {
        let spelled = row.outcome.replacingOccurrences(of: "/", with: " of ")
        return row.meaning.hasPrefix(spelled) ? row.meaning : "\(row.outcome) → \(row.meaning)"
    }

    /// Whether a variant reads as its compact lines (`compactVariant(_:)`) rather than its block.
    func isCompact(_ report: VariantReport) -> Bool {
        !verbose && report.passed && report.trials > 0 && report.errors == 0
    }

    /// The names the report gives a variant's three counts, in the report's order.
    static let countNames = ["lost writes", "duplicates", "inconsistencies"]

    /// A variant's three counts, by name, in the report's order.
    static func amounts(_ report: VariantReport) -> [(String, Int)] {
        Array(zip(countNames, [report.lostWrites, report.duplicates, report.inconsistencies]))
    }

    /// The counts a variant's report shows: its compact lines those not zero; its block those its
    /// lesson measures (`counts`, nil: all three) and any other not zero.
    package func shownCounts(_ report: VariantReport, counts: Set<String>? = nil) -> Set<String> {
        guard report.trials > 0 else { return [] }
        let whole = !isCompact(report)
        return Set(
            Self.amounts(report).filter { name, total in total > 0 || whole && counts?.contains(name) ?? true }
                .map(\.0)
        )
    }

    /// What the counts on the variants' lines count, for every count those lines show (`shownCounts`,
    /// zeros included) that the lesson explains (`Lesson.countMeanings`): `1.40 lost writes` then says
    /// what was lost, and how the means are rounded. Empty when there are none.
    package func countLegend(
        _ meanings: [String: String],
        reports: [VariantReport],
        counts: Set<String>? = nil
    ) -> String {
        let shown = reports.reduce(into: Set<String>()) { $0.formUnion(shownCounts($1, counts: counts)) }
        // A meaning of several lines (one per family of variants) puts each under the name, so that
        // each line on a projector says what one number means.
        let lines = Self.countNames.compactMap { name -> [String]? in
            guard shown.contains(name), let meaning = meanings[name] else { return nil }
            let parts = meaning.split(separator: "\n").map(String.init)
            guard parts.count > 1 else { return wrapped("  \(label(name)): \(meaning)", hang: "    ") }
            return ["  \(label(name)):"] + parts.flatMap { wrapped("    \($0)", hang: "      ") }
        }
        guard !lines.isEmpty else { return "" }
        let heading = "what the counts count (mean per trial = total ÷ trials that ran without an error):"
        // How `perTrialFigure` rounds, so that `1.15` beside `77` reads as one rule.
        let rounding = "  (a mean of 10 or more is rounded to a whole number; below 10 it keeps two decimals)"
        return ([heading] + lines.flatMap { $0 } + [rounding]).joined(separator: "\n") + "\n"
    }

    /// A lesson's closing line after `run`: how many buggy variants reproduced and fixed ones stayed
    /// clean, PASS, FAIL or ERROR, and the variants that decided a FAIL or an ERROR.
    package func summary(_ lesson: RunReport.LessonReport) -> String {
        let buggy = lesson.variants.filter { $0.kind == .buggy && $0.decides }
        let fixed = lesson.variants.filter { $0.kind == .fixed && $0.decides }
        let unmeasured = lesson.variants.filter { !$0.decides }
        // ERROR only when errors are all that went wrong: a real failure beside an error is a FAIL.
        let failing = lesson.variants.filter { !$0.passed && $0.decides }
        let failingVerdicts = Set(failing.map(\.verdict))
        return summaryLine(
            lesson: lesson.number,
            buggy: (buggy.filter(\.passed).count, buggy.count),
            shown: "reproduced",
            fixed: (fixed.filter(\.passed).count, fixed.count),
            besides: unmeasured.isEmpty ? [] : ["\(unmeasured.count) not counted on this system"],
            outcome: lesson.passed ? "PASS" : failingVerdicts == [.error] ? "ERROR" : "FAIL",
            deciding: failing.map { ($0.name, $0.verdict.label) }
        )
    }

    /// A lesson's closing line, for `run` and `explore` alike: `lesson 3: buggy reproduced 3/3, fixed
    /// clean 4/5 → FAIL (in-flight-task: failed)`. `buggy` counts the buggy variants whose bug
    /// showed (said as `shown`) of those counted, `fixed` the fixed ones that stayed clean, `besides`
    /// says what else the lesson had; `deciding` are the variants that decided the `outcome`, each
    /// with its verdict. A PASS of buggy variants alone (`--variant` naming a buggy one) says that
    /// their bugs showing is what passed, so that it never reads as the code being correct. Wrapped
    /// to the report's width.
    package func summaryLine(
        lesson: Int,
        buggy: (shown: Int, of: Int),
        shown: String,
        fixed: (clean: Int, of: Int),
        besides: [String] = [],
        outcome: String,
        deciding: [(name: String, verdict: String)]
    ) -> String {
        var parts: [String] = []
        if buggy.of > 0 { parts.append("buggy \(shown) \(buggy.shown)/\(buggy.of)") }
        if fixed.of > 0 { parts.append("fixed clean \(fixed.clean)/\(fixed.of)") }
        parts += besides
        var line = "lesson \(lesson): " + parts.joined(separator: ", ") + " → " + outcome
        if outcome == "PASS" && fixed.of == 0 && buggy.of > 0 {
            let (bugs, verb) = buggy.of == 1 ? ("the bug", "was") : ("the bugs", "were")
            let happened = shown == "reproduced" ? "showed" : "\(verb) \(shown)"
            line += ": \(bugs) \(happened), as the lesson expects"
        }
        if !deciding.isEmpty {
            line += " (" + deciding.map { "\($0.name): \($0.verdict.lowercased())" }.joined(separator: "; ") + ")"
        }
        return wrapped(line).joined(separator: "\n") + "\n"
    }

    /// What to try for each buggy variant of `lesson` whose bug did not show: a race can stay hidden
    /// for a whole run, more often without noise, while the schedule explorer (for the variants in
    /// `explorable`) searches schedules instead of waiting for one, run as `tool` (the command that
    /// started this run, so that the line runs as printed). Empty when every bug showed.
    package func hiddenBugAdvice(
        _ lesson: RunReport.LessonReport,
        explorable: Set<String>,
        tool: String = "racelab"
    ) -> String {
        let hidden = lesson.variants.filter { $0.kind == .buggy && $0.decides && $0.verdict == .notReproduced }
        let lines = hidden.flatMap { report in
            let again = report.noise ? "more --trials" : "noise on (the default)"
            let explore =
                explorable.contains(report.name)
                ? ", or `\(tool) explore \(lesson.number) --variant \(report.name)`, which searches schedules "
                    + "rather than waiting for one"
                : ""
            return wrapped(
                "  \(report.name): a race can stay hidden for a whole run; try \(again)\(explore)",
                hang: "    "
            )
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// The histogram as a table of at most `width` columns, always in one layout: OUTCOME, TRIALS,
    /// FREQ, EXPECT, MEANING. A meaning too long for its column wraps within it, and so does an
    /// outcome too long to leave the MEANING column `minimumMeaningWidth` columns: whether meanings
    /// fit in their column depends on `width` alone, never on a row, so every histogram of a report
    /// places them alike. Only a `width` too narrow for the table puts each meaning on the lines
    /// below its row, in every row.
    func histogram(_ rows: [HistogramRow], width: Int = .max) -> [String] {
        let shown = Array(rows.prefix(Self.histogramRows))
        let samplesWidth = max(7, shown.map { grouped($0.samples).count }.max() ?? 0)
        // TRIALS, FREQ and EXPECT, with the gaps before each and before MEANING.
        let figuresWidth = 2 + samplesWidth + 2 + 7 + 2 + 10 + 2
        let longest = max(7, shown.map(\.outcome.count).max() ?? 0)
        let meaningOnRow = width == .max || width - (7 + figuresWidth) >= Self.minimumMeaningWidth
        // `text` in lines of at most `width` columns, broken at spaces, none indented.
        func column(_ text: String, _ width: Int) -> [String] { wrapped(text, width: width, hang: "") }
        // As wide as the longest outcome, or as its widest wrapped line when that would leave MEANING
        // too narrow.
        let outcomeRoom = width - figuresWidth - (meaningOnRow ? Self.minimumMeaningWidth : 0)
        let outcomeWidth =
            width == .max || longest <= outcomeRoom
            ? longest : max(7, shown.flatMap { column($0.outcome, max(7, outcomeRoom)) }.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
            let space = String(repeating: " ", count: max(0, width - text.count))
            return right ? space + text : text + space
        }
        // MEANING heads a column only when meanings are in one.
        var lines = [
            pad("OUTCOME", outcomeWidth) + "  " + pad("TRIALS", samplesWidth, right: true)
                + "     FREQ  EXPECT" + (meaningOnRow ? "      MEANING" : "")
        ]
        for row in shown {
            let figures =
                "  " + pad(grouped(row.samples), samplesWidth, right: true) + "  "
                + pad(percent(row.frequency), 7, right: true) + "  " + pad(row.expectation.label, 10)
            if width == .max {
                lines.append(pad(row.outcome, outcomeWidth) + figures + "  " + row.meaning)
                continue
            }
            let outcomes = column(row.outcome, outcomeWidth)
            let meanings = meaningOnRow ? column(row.meaning, width - outcomeWidth - figuresWidth) : []
            let blank = String(repeating: " ", count: figuresWidth)
            for index in 0..<max(outcomes.count, meanings.count) {
                let outcome = index < outcomes.count ? outcomes[index] : ""
                let meaning = index < meanings.count ? meanings[index] : ""
                let line = pad(outcome, outcomeWidth) + (index == 0 ? figures + "  " : blank) + meaning
                lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
            }
            if !meaningOnRow { lines += wrapped("  → " + row.meaning, width: width, hang: "    ") }
        }
        return lines + moreOutcomes(rows, shown: shown.count)
    }

    /// The narrowest MEANING column the histogram wraps meanings in; a report narrower than the
    /// table with such a column puts them below rows.
    static let minimumMeaningWidth = 24

    private func moreOutcomes(_ rows: [HistogramRow], shown: Int) -> [String] {
        guard rows.count > shown else { return [] }
        let rest = rows.dropFirst(shown)
        return ["… \(rest.count) more outcomes in \(grouped(rest.map(\.samples).reduce(0, +))) trials (all in --json)"]
    }
}

/// An amount per trial: a whole number from 10 up (`491`), where decimals would only be noise in a
/// count; two decimals below (`0.52`, `4.46`), where they tell a rare anomaly from none, which is
/// why a mean above 0 that would round to `0.00` reads `<0.01`. `Scripts/lesson-tables` follows the
/// same rule.
package func perTrialFigure(_ total: Int, trials: Int) -> String {
    let value = Double(total) / Double(trials)
    if value >= 10 { return grouped(Int(value.rounded())) }
    return value > 0 && value < 0.005 ? "<0.01" : String(format: "%.2f", value)
}

/// `1234567` as `1,234,567`, independent of the locale.
package func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return value < 0 ? "-" + result : result
}

/// A number of trials with its noun, singular for one: `1 trial`, `1,000 trials`.
package func trialCount(_ trials: Int) -> String {
    "\(grouped(trials)) trial\(trials == 1 ? "" : "s")"
}

/// A fraction from 0 to 1 as a percentage with one decimal, `"49.1%"`.
func percent(_ fraction: Double) -> String {
    String(format: "%.1f%%", fraction * 100)
}

extension HistogramRow.Expectation {
    /// The EXPECT column of the text histogram.
    var label: String {
        switch self {
        case .acceptable: "ACCEPTABLE"
        case .forbidden: "FORBIDDEN"
        case .error: "ERROR"
        }
    }
}

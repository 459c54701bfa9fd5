import Foundation

/// `racelab run --html`: the run report as one self-contained HTML page (see `HTMLPage`), each
/// variant's outcome histogram drawn as bars: one bar per outcome, as long as its share of the
/// trials, red where only a bug can end that way.
public enum RunHTML {
    /// The page for `report`: inline CSS, no script, image or URL.
    /// - Parameter report: the run's report.
    /// - Returns: the HTML text.
    public static func render(_ report: RunReport) -> String {
        var body = [
            "<p class=\"figures\">seed \(report.seed) · noise \(report.noise ? "on" : "off") · "
                + "each variant in its own process"
                + (report.interrupted.map { " · interrupted by \(xmlEscaped($0))" } ?? "") + "</p>"
        ]
        for lesson in report.lessons {
            body.append("<h2>lesson \(lesson.number) (\(xmlEscaped(lesson.slug))): \(xmlEscaped(lesson.title))</h2>")
            for variant in lesson.variants {
                body += section(variant)
            }
        }
        let title =
            report.lessons.count == 1
            ? "lesson \(report.lessons[0].number) (\(report.lessons[0].slug)): \(report.lessons[0].title), run"
            : "lessons " + report.lessons.map { String($0.number) }.joined(separator: ", ") + ", run"
        return HTMLPage.document(title: title, style: style, body: body)
    }

    private static func section(_ variant: VariantReport) -> [String] {
        var lines = [
            "<section class=\"variant\">",
            "<h3>\(xmlEscaped(variant.name)) <span class=\"kind\">[\(variant.kind.rawValue)]</span> "
                + HTMLPage.verdict(variant.verdict.label, finding: finding(of: variant), expected: variant.passed)
                + "</h3>",
            "<p>\(xmlEscaped(variant.summary))</p>",
            "<p class=\"figures\">" + crashedTrials(variant)
                + "\(grouped(variant.trials)) trials\(variant.crashedTrials?.isEmpty == false ? " finished" : "") × "
                + "\(grouped(variant.iterations)) iterations · "
                + "anomalous trials \(grouped(variant.anomalousTrials)) · lost writes \(grouped(variant.lostWrites)) · "
                + "duplicates \(grouped(variant.duplicates)) · inconsistencies \(grouped(variant.inconsistencies))"
                + (variant.errors > 0 ? " · errors \(grouped(variant.errors)) (not evidence of the bug)" : "")
                + String(format: " · %.2f s", variant.wallSeconds) + "</p>",
        ]
        if !variant.histogram.isEmpty {
            lines.append("<table class=\"histogram\">")
            lines.append("<thead><tr><th>outcome</th><th>trials</th><th>share</th><th>meaning</th></tr></thead>")
            lines.append("<tbody>")
            for row in variant.histogram {
                // 14em is every trial; the shortest bar stays visible.
                let width = String(format: "%.2f", max(0.1, row.frequency * 14))
                lines.append(
                    "<tr class=\"\(row.expectation.rawValue)\"><td><code>\(xmlEscaped(row.outcome))</code></td>"
                        + "<td class=\"number\">\(grouped(row.samples))</td>"
                        + "<td class=\"bar\"><div class=\"bar \(row.expectation.rawValue)\" style=\"width: \(width)em\">"
                        + "</div><span>\(String(format: "%.1f%%", row.frequency * 100))</span></td>"
                        + "<td>\(xmlEscaped(row.meaning)) (\(row.expectation.rawValue))</td></tr>"
                )
            }
            lines += ["</tbody>", "</table>"]
        }
        lines.append(
            "<p class=\"reason\">\(xmlEscaped(variant.verdict.label)): \(xmlEscaped(variant.verdictReason))</p>"
        )
        if !variant.stderrTail.isEmpty {
            lines.append("<pre>\(xmlEscaped(variant.stderrTail.joined(separator: "\n")))</pre>")
        }
        lines.append("</section>")
        return lines
    }

    /// `40 trials ran, 2 crashed (trials 3 and 17) · ` for a variant whose process died in some trials;
    /// empty otherwise.
    private static func crashedTrials(_ variant: VariantReport) -> String {
        guard let crashes = variant.crashedTrials, !crashes.isEmpty else { return "" }
        let which = IsolatedRun.ContinuedRun.trialList(crashes.map(\.trial))
        return "\(grouped(variant.trialsRun)) trials ran, \(grouped(crashes.count)) crashed (\(which)) · "
    }

    /// Red when the variant showed a bug (anomalous trials), green when it stayed clean, grey when
    /// an error left it without a verdict.
    private static func finding(of variant: VariantReport) -> HTMLPage.Finding {
        if variant.verdict == .error { return .error }
        return variant.anomalousTrials > 0 || !variant.passed ? .bug : .clean
    }

    private static let style = """
        h3 { font-size: 1.1em; margin-top: 1.5em; }
        td.number { text-align: right; }
        td.bar { width: 20em; }
        div.bar { display: inline-block; height: 1em; vertical-align: middle; margin-right: 0.5em; }
        div.bar.acceptable { background: #2e7d32; }
        div.bar.forbidden { background: #c62828; }
        div.bar.error { background: #9e9e9e; }
        tr.forbidden td:first-child { font-weight: bold; color: #c62828; }
        """
}

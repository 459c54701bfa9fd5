import Foundation

/// Renders the matrix for a terminal: a table with one row per variant, then TSan's reports in
/// short, what each tool saw of the buggy variants, and every row that differs from what was
/// expected.
package struct MatrixText {
    /// Widest line of the text; a longer line wraps, its continuation indented. `--json` and JUnit
    /// keep every message whole.
    static let width = 100
    /// Distinct reports listed per variant.
    static let reportsShown = 3

    let matrix: ToolMatrix

    package init(matrix: ToolMatrix) {
        self.matrix = matrix
    }

    /// The three cells of a row as short text.
    static func cells(_ row: MatrixRow) -> (runner: String, tsan: String, compiler: String) {
        let runner: String
        switch row.runner.verdict {
        case .reproduced, .notReproduced, .clean, .failed:
            runner = "\(row.runner.verdict.label.lowercased()) \(row.runner.anomalousTrials)/\(row.runner.trials)"
        case .error:
            runner = "error \(row.runner.errorTrials)/\(row.runner.trials)"
        case .crashed, .timedOut:
            runner = row.runner.verdict.label.lowercased()
        }

        var tsan: String
        switch row.tsan.outcome {
        case .silent: tsan = "silent"
        case .reported:
            let count = row.tsan.reports.count
            tsan = "\(count) report\(count == 1 ? "" : "s")"
            if row.role == .calibration { tsan += " (false positive)" }
        case .notMeasured: tsan = "not measured"
        case .failed: tsan = "failed to start"
        }
        if row.tsan.ranWithoutAddressRandomization { tsan += " ¹" }

        let compiler: String
        switch row.compiler.outcome {
        case .accepted: compiler = "accepted"
        case .rejected: compiler = "rejected: " + (row.compiler.diagnostic ?? "")
        case .notMeasured:
            compiler = row.role == .calibration ? "—" : "not measured (\(row.compiler.note ?? "no probe"))"
        }
        return (runner, tsan, compiler)
    }

    /// `Linux`, `macOS`, or "this system" when the matrix ran on another.
    static func systemName(_ rawValue: String?) -> String {
        rawValue.flatMap(ToolExpectation.OperatingSystem.init(rawValue:))?.description ?? "this system"
    }

    package func render() -> String {
        var lines: [String] = []
        let settings = matrix.settings
        lines.append("RaceLab · which tool catches which bug")
        lines.append(
            "runner   each variant in its own process"
                + (settings.threadSanitizer ? " (ThreadSanitizer build)" : "")
                + ", noise \(settings.noise ? "on" : "off"), seed \(settings.seed), trials until \(formatSeconds(settings.budgetSeconds)) s"
                + (settings.trialCap.map { " or \($0) trials" } ?? " or the lesson's count") + " per variant"
        )
        if settings.threadSanitizer {
            lines.append(
                "TSan     halt_on_error=0, one log per process: \(settings.logFolder ?? "?")/<NN-lesson>.<variant>.<pid>"
            )
        } else {
            lines.append(
                "TSan     not measured: \(settings.executable) is not a ThreadSanitizer build (use 'make tsan')"
            )
        }
        lines.append(
            "Swift 6  "
                + (settings.compilerCommand.map {
                    "\($0) \(settings.probeFolder)/<NN-lesson>/\(CompilerProbe.folderName)/<variant>.swift"
                } ?? "not measured: no swiftc found")
        )
        lines.append(
            "expected "
                + (settings.expectationsFile.map { "as in \($0)" }
                    ?? "as declared on each variant for \(Self.systemName(settings.operatingSystem))")
        )
        lines = lines.flatMap { Self.wrap($0, indent: String(repeating: " ", count: 9)) }
        lines.append("")
        lines.append(contentsOf: table())
        if matrix.rows.contains(where: \.unmeasured) {
            lines.append(
                "(unmeasured): no TSan/compiler expectation for this variant "
                    + (settings.expectationsFile.map { "in \($0)" }
                        ?? "measured on \(Self.systemName(settings.operatingSystem))")
                    + "; only the built-in rules were checked"
            )
        }
        if matrix.rows.contains(where: \.tsan.ranWithoutAddressRandomization) {
            lines.append(
                // portable: only MatrixRunner on Linux sets ranWithoutAddressRandomization
                "¹ run under 'setarch -R' (no address randomization): TSan could not map its shadow memory otherwise"
            )
        }
        let reports = reportLines()
        if !reports.isEmpty {
            lines.append("")
            lines.append("TSan reports (distinct races; the full reports with both stacks are in the logs):")
            lines.append(contentsOf: reports)
        }
        let seen = seenBy()
        if !seen.isEmpty {
            lines.append("")
            lines.append(contentsOf: seen)
        }
        if !matrix.notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: matrix.notes.map { "note: " + $0 })
        }
        lines.append("")
        let failing = matrix.rows.filter { !$0.passed }
        for row in failing {
            for problem in row.problems {
                lines.append("✗ lesson \(row.lesson) \(row.slug) · \(row.variant) [\(row.role.rawValue)]: \(problem)")
            }
        }
        let time = String(format: "%.0f", matrix.wallSeconds)
        let unmeasured = matrix.rows.filter(\.unmeasured).count
        if failing.isEmpty && unmeasured > 0 {
            lines.append(
                "matrix: PASS, \(matrix.rows.count - unmeasured) rows as expected and \(unmeasured) unmeasured "
                    + "(built-in rules only) (\(time) s)"
            )
        } else if failing.isEmpty {
            lines.append("matrix: PASS, all \(matrix.rows.count) rows as expected (\(time) s)")
        } else {
            lines.append(
                "matrix: FAIL, \(failing.count) of \(matrix.rows.count) rows differ from what was expected: "
                    + failing.map { "\($0.slug) · \($0.variant)" }.joined(separator: ", ") + " (\(time) s)"
            )
        }
        return lines.flatMap { Self.wrap($0) }.joined(separator: "\n") + "\n"
    }

    /// `line` cut at spaces into lines of at most `width` columns, each continuation starting with
    /// `indent` (by default the line's own indent and four more spaces). A word longer than a line
    /// (a path) stays whole.
    static func wrap(_ line: String, width: Int = width, indent: String? = nil) -> [String] {
        guard line.count > width else { return [line] }
        let lead = line.prefix { $0 == " " }
        let indent = indent ?? String(lead) + "    "
        var lines: [String] = []
        var current = String(lead)
        var rest = line.dropFirst(lead.count)
        var hasWord = false
        while !rest.isEmpty {
            // The next word, with the spaces before it: a break drops the spaces, no break keeps them.
            let spaces = rest.prefix { $0 == " " }
            let word = rest.dropFirst(spaces.count).prefix { $0 != " " }
            rest = rest.dropFirst(spaces.count + word.count)
            if !hasWord || current.count + spaces.count + word.count <= width {
                current += hasWord ? spaces + word : word
            } else {
                lines.append(current)
                current = indent + word
            }
            hasWord = true
        }
        lines.append(current)
        return lines
    }

    private func table() -> [String] {
        let rows = matrix.rows
        let cells = rows.map(Self.cells)
        let names = rows.map { $0.variant + ($0.unmeasured ? " (unmeasured)" : "") }
        let nameWidth = max(20, (names.map(\.count).max() ?? 0) + 4)
        let runnerWidth = max("RUNNER (anomalous/trials)".count, cells.map(\.runner.count).max() ?? 0)
        let tsanWidth = max(12, cells.map(\.tsan.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        var lines = [
            "  " + pad("LESSON / VARIANT", nameWidth) + "  " + pad("KIND", 11) + "  "
                + pad("RUNNER (anomalous/trials)", runnerWidth)
                + "  " + pad("TSAN", tsanWidth) + "  SWIFT 6"
        ]
        var lastLesson: String?
        var messages: [String] = []
        for ((row, cell), name) in zip(zip(rows, cells), names) {
            let lessonLabel =
                row.role == .calibration
                ? "calibration: TSan on correct code (a report here is a false positive)"
                : "\(row.lesson) \(row.slug)"
            if lessonLabel != lastLesson {
                lines.append("  " + lessonLabel)
                lastLesson = lessonLabel
            }
            let start =
                (row.passed ? "  " : "✗ ") + pad("  " + name, nameWidth) + "  " + pad(row.role.rawValue, 11)
                + "  " + pad(cell.runner, runnerWidth) + "  " + pad(cell.tsan, tsanWidth) + "  "
            var compiler = cell.compiler
            // A message that does not fit is given whole in a note below the table, one per message.
            if start.count + compiler.count > Self.width, row.compiler.outcome == .rejected,
                let message = row.compiler.diagnostic
            {
                if !messages.contains(message) { messages.append(message) }
                compiler = "rejected (\(Self.noteMark(messages.firstIndex(of: message) ?? 0)))"
            }
            lines.append(start + compiler)
        }
        if rows.contains(where: { $0.compiler.outcome != .notMeasured }) {
            lines.append(
                "SWIFT 6: the compiler on the article's code as written (\(CompilerProbe.folderName)/<variant>.swift); "
                    + "a rejection can be for Sendable, not for the race: read its message"
            )
        }
        for (index, message) in messages.enumerated() {
            lines.append(contentsOf: Self.wrap("(\(Self.noteMark(index))) " + message, indent: "    "))
        }
        return lines
    }

    /// `a`, `b`, … `z`, then `27`, `28`, …: the mark of a compiler message's note.
    static func noteMark(_ index: Int) -> String {
        index < 26 ? String(UnicodeScalar(UInt8(97 + index))) : String(index + 1)
    }

    private func reportLines() -> [String] {
        var lines: [String] = []
        for row in matrix.rows where !row.tsan.reports.isEmpty || !row.tsan.failures.isEmpty {
            let count = row.tsan.reports.count
            var header =
                "  lesson \(row.lesson) \(row.slug) · \(row.variant) [\(row.role.rawValue)]: \(count) race\(count == 1 ? "" : "s")"
                + " (\(row.tsan.warnings) warning\(row.tsan.warnings == 1 ? "" : "s") from \(row.tsan.processes) process\(row.tsan.processes == 1 ? "" : "es"))"
            if let folder = matrix.settings.logFolder {
                header +=
                    ", logs \(folder)/\(CompilerProbe.lessonFolderName(number: row.lesson, slug: row.slug)).\(row.variant).*"
            }
            lines.append(header)
            for report in row.tsan.reports.prefix(Self.reportsShown) {
                lines.append("      \(report.headline)")
                for access in report.accesses {
                    var line = "        \(access.description)"
                    if let location = access.location { line += " at \(location)" }
                    if let function = access.function, function != report.function { line += " in \(function)" }
                    lines.append(line)
                }
            }
            if count > Self.reportsShown { lines.append("      … \(count - Self.reportsShown) more") }
            for failure in row.tsan.failures.prefix(2) { lines.append("      " + failure) }
        }
        return lines
    }

    /// What each tool saw of the buggy variants: the lesson of the matrix in three lines.
    private func seenBy() -> [String] {
        let buggy = matrix.rows.filter { $0.role == .buggy }
        guard !buggy.isEmpty else { return [] }
        func names(_ rows: [MatrixRow]) -> String {
            rows.isEmpty ? "none" : rows.map { "\($0.variant) (\($0.lesson))" }.joined(separator: ", ")
        }
        var lines = ["Of \(buggy.count) buggy variant\(buggy.count == 1 ? "" : "s") (lesson number in parentheses):"]
        lines.append("  the runner reproduced \(buggy.filter { $0.runner.verdict == .reproduced }.count)")
        if matrix.settings.threadSanitizer {
            let reported = buggy.filter { $0.tsan.outcome == .reported }
            lines.append("  TSan reported \(reported.count): \(names(reported))")
        }
        let measured = buggy.filter { $0.compiler.outcome != .notMeasured }
        let rejected = measured.filter { $0.compiler.outcome == .rejected }
        lines.append(
            "  the Swift 6 compiler rejected \(rejected.count) of \(measured.count) probed: \(names(rejected))"
        )
        if matrix.settings.threadSanitizer {
            let neither = buggy.filter { $0.tsan.outcome == .silent && $0.compiler.outcome == .accepted }
            lines.append("  TSan silent and the article's code accepted by the compiler: \(names(neither))")
        }
        // The compiler's rejections only mean something next to what it does with the fixes.
        let fixedMeasured = matrix.rows.filter { $0.role == .fixed && $0.compiler.outcome != .notMeasured }
        if !fixedMeasured.isEmpty {
            let rejectedFixes = fixedMeasured.filter { $0.compiler.outcome == .rejected }
            lines.append(
                "Of \(matrix.rows.filter { $0.role == .fixed }.count) fixed variants, the Swift 6 compiler also rejected "
                    + "\(rejectedFixes.count) of \(fixedMeasured.count) probed: correct code it cannot verify without @unchecked Sendable"
            )
        }
        return lines
    }
}

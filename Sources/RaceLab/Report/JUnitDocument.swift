import Foundation

/// A report as JUnit XML, the format CI systems (GitHub Actions test reporters, GitLab, Jenkins)
/// read to show test results: one `<testsuite>` per lesson, one `<testcase>` per variant, and a
/// `<failure>` where the variant did not get what it should.
///
/// JUnit has no agreed schema; this writes the common subset every reader accepts: `testsuites` >
/// `testsuite` (`name`, `tests`, `failures`, `errors`, `skipped`, `time`) > `testcase` (`classname`,
/// `name`, `time`) with an optional `failure` (`message`, `type`, text) and `system-out`.
public struct JUnitDocument: Sendable, Equatable {
    /// One `<testcase>`: a variant.
    public struct TestCase: Sendable, Equatable {
        /// The `classname` attribute: the lesson.
        public var className: String
        /// The `name` attribute: the variant.
        public var name: String
        /// The `time` attribute, in seconds.
        public var seconds: Double
        /// `(message, details)` when the case failed.
        public var failure: (message: String, details: String)?
        /// What to show under the case (measured numbers).
        public var output: String

        public static func == (lhs: TestCase, rhs: TestCase) -> Bool {
            lhs.className == rhs.className && lhs.name == rhs.name && lhs.seconds == rhs.seconds
                && lhs.failure?.message == rhs.failure?.message && lhs.failure?.details == rhs.failure?.details
                && lhs.output == rhs.output
        }
    }

    /// One `<testsuite>`: a lesson.
    public struct Suite: Sendable, Equatable {
        /// The suite's name.
        public var name: String
        /// Its cases, in order.
        public var cases: [TestCase]
    }

    /// The `<testsuites>` name: the tool that wrote the report.
    public var name: String
    /// The suites, in order.
    public var suites: [Suite]

    /// The XML text, UTF-8, with a declaration.
    public func xml() -> String {
        let all = suites.flatMap(\.cases)
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        lines.append(
            #"<testsuites name="\#(xmlEscaped(name))" tests="\#(all.count)" failures="\#(all.filter { $0.failure != nil }.count)" time="\#(seconds(all.map(\.seconds).reduce(0, +)))">"#
        )
        for suite in suites {
            let failures = suite.cases.filter { $0.failure != nil }.count
            let time = suite.cases.map(\.seconds).reduce(0, +)
            lines.append(
                #"  <testsuite name="\#(xmlEscaped(suite.name))" tests="\#(suite.cases.count)" failures="\#(failures)" errors="0" skipped="0" time="\#(seconds(time))">"#
            )
            for testCase in suite.cases {
                lines.append(
                    #"    <testcase classname="\#(xmlEscaped(testCase.className))" name="\#(xmlEscaped(testCase.name))" time="\#(seconds(testCase.seconds))">"#
                )
                if let failure = testCase.failure {
                    lines.append(
                        #"      <failure message="\#(xmlEscaped(failure.message))" type="failure">\#(xmlEscaped(failure.details))</failure>"#
                    )
                }
                if !testCase.output.isEmpty {
                    lines.append("      <system-out>\(xmlEscaped(testCase.output))</system-out>")
                }
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `xml()` to `path`, whose folder must exist: a mistyped path must fail, not grow folders.
    public func write(to path: String) throws {
        try Data(xml().utf8).write(to: URL(fileURLWithPath: path))
    }

    private func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}

/// `text` safe inside XML attribute values and elements: the five special characters escaped, and
/// control characters XML 1.0 forbids (everything below U+0020 but tab, newline and return) dropped.
func xmlEscaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
        default:
            if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}

extension JUnitDocument {
    /// A `racelab run` report: a variant fails when its verdict is not the one its kind calls for.
    /// An interrupted run adds a suite `run` with one failing case, `interrupted`: a CI reader that
    /// only counts failures would otherwise show the variants that finished, all passing, as a pass.
    public init(run report: RunReport) {
        let text = TextReport(lessonVariants: true)
        var suites = Self.suites(of: report, text: text)
        if let signal = report.interrupted {
            let message = "interrupted by \(signal): only the variants reported here finished; the run is not a pass"
            suites.append(
                Suite(
                    name: "run",
                    cases: [
                        TestCase(
                            className: "\(report.tool).run",
                            name: "interrupted",
                            seconds: 0,
                            failure: (message, ""),
                            output: ""
                        )
                    ]
                )
            )
        }
        self.init(name: report.tool, suites: suites)
    }

    private static func suites(of report: RunReport, text: TextReport) -> [Suite] {
        report.lessons.map { lesson in
            Suite(
                name: "lesson \(lesson.number): \(lesson.slug)",
                cases: lesson.variants.map { variant in
                    TestCase(
                        className: "\(report.tool).\(lesson.slug)",
                        name: "\(variant.name) [\(variant.kind.rawValue)]",
                        seconds: variant.wallSeconds,
                        failure: variant.passed
                            ? nil
                            : (
                                "\(variant.verdict.label): \(variant.verdictReason)",
                                variant.stderrTail.joined(separator: "\n")
                            ),
                        output: text.variant(variant)
                    )
                }
            )
        }
    }
}

/// An expectations file for `racelab matrix --expectations FILE`: what ThreadSanitizer and the
/// Swift 6 compiler are expected to make of each variant, replacing the expectations declared on
/// the variants (`ToolExpectation`) for one run. Useful to check a lesson against outcomes measured
/// elsewhere, or to see what a change of expectation would do, without editing the lesson.
///
/// One line per variant, `#` starts a comment:
///
/// ```
/// # lesson          variant        tsan      compiler
/// subscript-race    buggy          silent    rejected
/// check-then-act    buggy          reported  rejected
/// ```
///
/// `tsan` is `silent`, `reported` or `any`; `compiler` is `accepted`, `rejected`, `not-measured` or
/// `any` (see `ToolExpectation`). A variant with no line is unmeasured for that run: only the rules
/// that need no expectation apply.
public struct MatrixExpectations: Sendable, Equatable {
    /// One line of the file: a variant's expected TSan and compiler outcomes.
    public struct Entry: Sendable, Equatable, Codable {
        /// What ThreadSanitizer is expected to report.
        public typealias TSan = ToolExpectation.TSan
        /// What the Swift 6 compiler is expected to say.
        public typealias Compiler = ToolExpectation.Compiler

        /// The lesson's slug (`subscript-race`), or `tsan-calibration` for the calibration rows.
        public var lesson: String
        /// The variant's name.
        public var variant: String
        /// The expected TSan outcome.
        public var tsan: TSan
        /// The expected compiler outcome.
        public var compiler: Compiler
        /// The line in the file, for messages.
        public var line: Int

        /// The line as an expectation for `system`, its reason naming `file` and the line.
        public func toolExpectation(file: String, system: ToolExpectation.OperatingSystem) -> ToolExpectation {
            ToolExpectation(tsan: tsan, compiler: compiler, measuredOn: system, reason: "\(file) line \(line)")
        }
    }

    /// A line that cannot be read, with its number.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        /// The line's number, from 1.
        public var line: Int
        /// What is wrong with it.
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    /// The lines, in file order.
    public var entries: [Entry]

    /// Expectations made of `entries`.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Reads the file's text.
    public static func parse(_ text: String) throws(FormatError) -> MatrixExpectations {
        var entries: [Entry] = []
        var seen = Set<String>()
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if fields.isEmpty { continue }
            guard fields.count == 4 else {
                throw FormatError(
                    line: number,
                    message: "expected 4 fields (lesson variant tsan compiler), got \(fields.count)"
                )
            }
            guard let tsan = Entry.TSan(rawValue: fields[2]) else {
                throw FormatError(
                    line: number,
                    message: "tsan must be one of "
                        + Entry.TSan.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(fields[2])'"
                )
            }
            guard let compiler = Entry.Compiler(rawValue: fields[3]) else {
                throw FormatError(
                    line: number,
                    message: "compiler must be one of "
                        + Entry.Compiler.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(fields[3])'"
                )
            }
            guard seen.insert(fields[0] + "/" + fields[1]).inserted else {
                throw FormatError(line: number, message: "\(fields[0]) \(fields[1]) is listed twice")
            }
            entries.append(Entry(lesson: fields[0], variant: fields[1], tsan: tsan, compiler: compiler, line: number))
        }
        return MatrixExpectations(entries: entries)
    }

    /// The expectation for `variant` of the lesson with `slug`, if the file has one.
    public func entry(lesson slug: String, variant: String) -> Entry? {
        entries.first { $0.lesson == slug && $0.variant == variant }
    }
}

/// The committed expectation for each variant's TSan and compiler outcome (`Matrix/expectations.txt`),
/// so that a change in what a tool sees fails the check instead of passing unnoticed.
///
/// One line per variant, `#` starts a comment:
///
/// ```
/// # lesson          variant        tsan      compiler
/// subscript-race    buggy          silent    rejected
/// check-then-act    buggy          reported  rejected
/// ```
///
/// `tsan` is `silent`, `reported` or `any` (for a race TSan catches only in some runs; say why in a
/// comment). `compiler` is `accepted`, `rejected`, `not-measured` (no probe yet) or `any`. A variant
/// with no line is checked only by the rules that need no expectation (a fixed variant must be
/// silent under TSan and clean in the runner; a buggy one must reproduce).
public struct MatrixExpectations: Sendable, Equatable {
    public struct Entry: Sendable, Equatable, Codable {
        public enum TSan: String, Sendable, Codable, CaseIterable {
            case silent, reported, any
        }

        public enum Compiler: String, Sendable, Codable, CaseIterable {
            case accepted, rejected
            case notMeasured = "not-measured"
            case any
        }

        /// The lesson's slug (`subscript-race`), or `tsan-calibration` for the calibration rows.
        public var lesson: String
        public var variant: String
        public var tsan: TSan
        public var compiler: Compiler
        /// The line in the file, for messages.
        public var line: Int
    }

    /// A line that cannot be read, with its number.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var entries: [Entry]

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

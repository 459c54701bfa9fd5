import Foundation

/// The "which tool catches which bug" matrix: one row per variant, with what the stress runner,
/// ThreadSanitizer and the Swift 6 compiler each made of it. This is the document `racelab matrix
/// --json` prints.
///
/// The point it makes: the three tools see different things. The compiler sees data that may be
/// shared unsafely, but not logic errors, and nothing at all behind `@unchecked Sendable`. TSan sees
/// unsynchronized memory accesses that really happened in the run it watched, but not a
/// read-then-write made of two individually synchronized steps, nor races between processes. The
/// runner sees wrong results, whatever their cause, if the run happens to produce them.
public struct ToolMatrix: Sendable, Codable, Equatable {
    /// How the matrix was measured.
    public struct Settings: Sendable, Codable, Equatable {
        /// The seed of the runner's noise.
        public var seed: UInt64
        /// Whether the runner injected noise.
        public var noise: Bool
        /// Seconds of trials per variant.
        public var budgetSeconds: Double
        /// At most this many trials per variant, if capped.
        public var trialCap: Int?
        /// Whether the variants ran under ThreadSanitizer.
        public var threadSanitizer: Bool
        /// The build that ran the variants.
        public var executable: String
        /// Where TSan's logs are.
        public var logFolder: String?
        /// The compiler command the probes were checked with, or nil when no compiler was found.
        public var compilerCommand: String?
        /// The folder of lesson folders the probes were read from (`<NN-slug>/CompilerProbes/`).
        public var probeFolder: String
        /// The `--expectations` file the rows were checked against; nil when they were checked
        /// against the expectations the variants declare.
        public var expectationsFile: String?
        /// The system whose declared expectations apply (`linux`, `macos`); nil on any other.
        public var operatingSystem: String?
    }

    /// The tool that measured, `"racelab"`.
    public var tool: String
    /// The schema version of this document; bumped when a field changes meaning or disappears.
    public var schemaVersion: Int
    /// How the matrix was measured.
    public var settings: Settings
    /// One row per variant, lessons in order, then the calibration rows.
    public var rows: [MatrixRow]
    /// Remarks that are not failures: variants with no expectation on this system (unmeasured),
    /// expectations for variants that do not exist, probes that name no variant.
    public var notes: [String]
    /// Every row as expected.
    public var passed: Bool
    /// Wall time of the whole matrix, in seconds.
    public var wallSeconds: Double

    /// The schema version this code writes.
    public static let currentSchemaVersion = 1

    /// A matrix of the current schema version; `passed` follows from the rows.
    /// - Parameters:
    ///   - tool: the tool that measured.
    ///   - settings: how it was measured.
    ///   - rows: one row per variant.
    ///   - notes: remarks that are not failures.
    ///   - wallSeconds: wall time of the whole matrix.
    public init(tool: String, settings: Settings, rows: [MatrixRow], notes: [String], wallSeconds: Double) {
        self.tool = tool
        self.schemaVersion = Self.currentSchemaVersion
        self.settings = settings
        self.rows = rows
        self.notes = notes
        self.passed = rows.allSatisfy(\.passed)
        self.wallSeconds = wallSeconds
    }

    /// Pretty-printed JSON with stable key order.
    public func jsonText() throws -> String {
        try JSONText.encode(self)
    }
}

extension JUnitDocument {
    /// The matrix as JUnit: a case fails when its row has problems; its output shows the three cells.
    public init(matrix: ToolMatrix) {
        var suites: [Suite] = []
        for row in matrix.rows {
            let suiteName = row.role == .calibration ? "tsan-calibration" : "lesson \(row.lesson): \(row.slug)"
            if suites.last?.name != suiteName { suites.append(Suite(name: suiteName, cases: [])) }
            let cells = MatrixText.cells(row)
            var output = "runner: \(cells.runner)\nTSan: \(cells.tsan)\nSwift 6 compiler: \(cells.compiler)\n"
            for report in row.tsan.reports { output += "  \(report.headline)\n" }
            if !row.tsan.logs.isEmpty { output += "TSan logs: " + row.tsan.logs.joined(separator: ", ") + "\n" }
            suites[suites.count - 1].cases.append(
                TestCase(
                    className: "\(matrix.tool).matrix.\(row.slug)",
                    name: "\(row.variant) [\(row.role.rawValue)]",
                    seconds: row.runner.wallSeconds,
                    failure: row.passed
                        ? nil : (row.problems.joined(separator: "; "), row.problems.joined(separator: "\n")),
                    output: output
                )
            )
        }
        self.init(name: "\(matrix.tool) matrix", suites: suites)
    }
}

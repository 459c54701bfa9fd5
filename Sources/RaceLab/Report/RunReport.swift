import Foundation

/// The report of one `racelab run`: one or more lessons, each with its variants' reports.
/// This is the document `--json` prints; its schema is described in README.md.
public struct RunReport: Sendable, Codable, Equatable {
    public struct LessonReport: Sendable, Codable, Equatable {
        public var number: Int
        public var slug: String
        public var title: String
        public var variants: [VariantReport]

        /// Every variant that decides (see `VariantReport.decides`) got its kind's verdict.
        public var passed: Bool { variants.allSatisfy { $0.passed || !$0.decides } }

        public init(number: Int, slug: String, title: String, variants: [VariantReport]) {
            self.number = number
            self.slug = slug
            self.title = title
            self.variants = variants
        }
    }

    /// The tool that wrote the report, `"racelab"` (or the name of a user's own entry point).
    public var tool: String
    /// The schema version of this document; bumped when a field changes meaning or disappears.
    public var schemaVersion: Int
    public var seed: UInt64
    public var noise: Bool
    /// Every buggy variant reproduced and every fixed variant clean.
    public var passed: Bool
    public var lessons: [LessonReport]
    /// The signal that interrupted the run (`"SIGINT"`, `"SIGTERM"`), when one did: the report then
    /// holds only the variants that finished, and `passed` is false. Absent from a complete run.
    public var interrupted: String?

    public static let currentSchemaVersion = 1

    public init(tool: String, seed: UInt64, noise: Bool, lessons: [LessonReport], interrupted: String? = nil) {
        self.tool = tool
        self.schemaVersion = Self.currentSchemaVersion
        self.seed = seed
        self.noise = noise
        self.passed = interrupted == nil && lessons.allSatisfy(\.passed)
        self.lessons = lessons
        self.interrupted = interrupted
    }

    /// The report as pretty-printed JSON with stable key order.
    public func jsonText() throws -> String {
        try JSONText.encode(self)
    }
}

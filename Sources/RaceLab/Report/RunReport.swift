import Foundation

/// The report of one `racelab run`: one or more lessons, each with its variants' reports.
/// This is the document `--json` prints; the JSON reports article describes its schema.
public struct RunReport: Sendable, Codable, Equatable {
    /// One lesson's part of the report.
    public struct LessonReport: Sendable, Codable, Equatable {
        /// The lesson's number.
        public var number: Int
        /// The lesson's slug.
        public var slug: String
        /// The lesson's title.
        public var title: String
        /// The reports of the variants that ran, in the lesson's order.
        public var variants: [VariantReport]
        /// The lesson's own words for a count, keyed by the count's field in `variants`
        /// (`lostWrites`, `duplicates`, `inconsistencies`), where the general name would mislead:
        /// lesson 4 counts overlaps as `inconsistencies`, so `["inconsistencies": "overlaps"]`.
        /// The text report names the count so; empty where a lesson keeps the general names (and
        /// when decoding a document written before the field existed).
        public var countLabels: [String: String]

        /// Every variant that decides (see `VariantReport.decides`) got its kind's verdict.
        public var passed: Bool { variants.allSatisfy { $0.passed || !$0.decides } }

        /// A lesson's part of the report.
        /// - Parameters:
        ///   - number: The lesson's number.
        ///   - slug: The lesson's slug.
        ///   - title: The lesson's title.
        ///   - variants: The reports of the variants that ran, in the lesson's order.
        ///   - countLabels: The lesson's words for a count, by the count's field name.
        public init(
            number: Int,
            slug: String,
            title: String,
            variants: [VariantReport],
            countLabels: [String: String] = [:]
        ) {
            self.number = number
            self.slug = slug
            self.title = title
            self.variants = variants
            self.countLabels = countLabels
        }

        /// Decodes a lesson's part; a document without `countLabels` gets none.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            number = try container.decode(Int.self, forKey: .number)
            slug = try container.decode(String.self, forKey: .slug)
            title = try container.decode(String.self, forKey: .title)
            variants = try container.decode([VariantReport].self, forKey: .variants)
            countLabels = try container.decodeIfPresent([String: String].self, forKey: .countLabels) ?? [:]
        }

        /// `Lesson.countLabels`, keyed by the count's field name in a variant report instead of
        /// the name the text report gives it (`lost writes` becomes `lostWrites`).
        package static func countLabels(fromLesson labels: [String: String]) -> [String: String] {
            Dictionary(
                labels.map { name, label in (name == "lost writes" ? "lostWrites" : name, label) },
                uniquingKeysWith: { first, _ in first }
            )
        }
    }

    /// The tool that wrote the report, `"racelab"` (or the name of a user's own entry point).
    public var tool: String
    /// The schema version of this document; bumped when a field changes meaning or disappears.
    public var schemaVersion: Int
    /// The seed noise decisions followed.
    public var seed: UInt64
    /// Whether noise was injected at race windows.
    public var noise: Bool
    /// Every buggy variant reproduced and every fixed variant clean.
    public var passed: Bool
    /// The lessons run, in order.
    public var lessons: [LessonReport]
    /// The signal that interrupted the run (`"SIGINT"`, `"SIGTERM"`), when one did: the report then
    /// holds only the variants that finished, and `passed` is false. Absent from a complete run.
    public var interrupted: String?

    /// The schema version this code writes.
    public static let currentSchemaVersion = 1

    /// A report of the current schema version; `passed` follows from the lessons and `interrupted`.
    /// - Parameters:
    ///   - tool: the tool that wrote it.
    ///   - seed: the seed noise decisions followed.
    ///   - noise: whether noise was on.
    ///   - lessons: the lessons run.
    ///   - interrupted: the signal that interrupted the run, if one did.
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

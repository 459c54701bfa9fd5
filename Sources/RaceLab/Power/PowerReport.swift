/// What `racelab power` measured: for each lesson, one `DetectionRate` per buggy variant and
/// strategy. This is the document `racelab power --json` prints.
public struct PowerReport: Sendable, Codable, Equatable {
    /// One lesson's rates, in the order they were measured (variant by variant, then strategy).
    public struct LessonPower: Sendable, Codable, Equatable {
        /// The lesson's number.
        public var number: Int
        /// The lesson's slug.
        public var slug: String
        /// The lesson's title.
        public var title: String
        /// One rate per buggy variant and strategy.
        public var rates: [DetectionRate]

        /// Whether every measurement ran to its end (none crashed or timed out).
        public var completed: Bool { rates.allSatisfy(\.completed) }

        /// A lesson's rates, as measured.
        public init(number: Int, slug: String, title: String, rates: [DetectionRate]) {
            self.number = number
            self.slug = slug
            self.title = title
            self.rates = rates
        }
    }

    /// The tool that measured, `"racelab"` (or the name of a user's own entry point).
    public var tool: String
    /// The schema version of this document; bumped when a field changes meaning or disappears.
    public var schemaVersion = Self.currentSchemaVersion
    /// The seed every strategy used, so that a run can be repeated.
    public var seed: UInt64
    /// The lessons measured, in the order they ran.
    public var lessons: [LessonPower]

    /// The schema version this build writes.
    public static let currentSchemaVersion = 1

    /// A report of the given lessons' rates.
    /// - Parameters:
    ///   - tool: the tool that measured.
    ///   - seed: the seed every strategy used.
    ///   - lessons: the lessons' rates.
    public init(tool: String, seed: UInt64, lessons: [LessonPower]) {
        self.tool = tool
        self.seed = seed
        self.lessons = lessons
    }
}

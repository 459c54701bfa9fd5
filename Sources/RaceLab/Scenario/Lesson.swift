/// A lesson: one concurrency pattern, its buggy variants and its fixes.
///
/// Lessons are numbered for the workshop (`make lesson-1`) and named by a slug for humans
/// (`racelab run subscript-race`); both identify the lesson on the command line.
public struct Lesson: Sendable {
    /// The lesson's fixed number, 1 and up.
    public let number: Int
    /// A short lowercase name, e.g. `"subscript-race"`.
    public let slug: String
    /// The title shown in reports.
    public let title: String
    /// One or two sentences on the bug.
    public let summary: String
    /// The workload a default `racelab run` uses, sized so that a run stays short on a laptop with two cores.
    public let workload: Workload
    /// The variants, in the order the report shows them.
    public let variants: [Variant]
    /// Entry points the lesson's variants run in processes of their own (see `LessonWorker`); most
    /// lessons have none.
    public let workers: [LessonWorker]
    /// What the amounts its runs count mean in this lesson, by the name the report gives them
    /// (`lost writes`, `duplicates`, `inconsistencies`): said under its variants when counted.
    /// A lesson that explains its counts measures those only (`measuredCounts`).
    public let countMeanings: [String: String]
    /// The words the text report uses for a count in this lesson, by the count's name, where the
    /// general name would mislead (lesson 4 counts overlaps as `inconsistencies`: `overlaps`). The
    /// JSON report keeps the general field names and carries these words in its lesson's
    /// `countLabels`, which the appendix tables use for their column titles.
    public let countLabels: [String: String]
    /// The counts its variants measure, which a verbose report shows even when zero: those it
    /// explains in `countMeanings`; nil (all three) when it explains none.
    public var measuredCounts: Set<String>? {
        countMeanings.isEmpty ? nil : Set(countMeanings.keys)
    }
    /// The buggy variant that shows the lesson's bug, which `racelab play` opens on: the one named
    /// at `init`, else the first buggy variant with an exploration.
    public var mainBug: Variant? {
        mainBugName.flatMap(variant(named:)) ?? variants.first { $0.kind == .buggy && $0.exploration != nil }
    }
    private let mainBugName: String?

    /// A lesson.
    /// - Parameters:
    ///   - number: its number, 1 and up.
    ///   - slug: a short lowercase name.
    ///   - title: the title shown in reports.
    ///   - summary: one or two sentences on the bug.
    ///   - workload: the workload of a default run.
    ///   - variants: at least one; their names unique.
    ///   - workers: entry points its variants run in processes of their own; names unique.
    ///   - countMeanings: what `lost writes`, `duplicates` or `inconsistencies` count in this lesson,
    ///     where the name alone does not say it; several lines (one per family of variants, say)
    ///     are printed each on its own line under the name.
    ///   - countLabels: what the text report calls a count in this lesson, where the general name
    ///     would mislead; a key of `countMeanings` says what it counts.
    ///   - mainBug: the buggy, explorable variant that shows the lesson's bug, when it is not the
    ///     first one (a baseline listed before it, for instance).
    /// - Precondition: at least one variant, and no two variants or workers of the same name;
    ///   `mainBug` names a buggy variant with an exploration.
    public init(
        number: Int,
        slug: String,
        title: String,
        summary: String,
        workload: Workload,
        variants: [Variant],
        workers: [LessonWorker] = [],
        countMeanings: [String: String] = [:],
        countLabels: [String: String] = [:],
        mainBug: String? = nil
    ) {
        precondition(!variants.isEmpty, "a lesson needs at least one variant")
        precondition(Set(variants.map(\.name)).count == variants.count, "variant names must be unique in a lesson")
        precondition(Set(workers.map(\.name)).count == workers.count, "worker names must be unique in a lesson")
        self.number = number
        self.slug = slug
        self.title = title
        self.summary = summary
        self.workload = workload
        self.variants = variants
        self.workers = workers
        self.countMeanings = countMeanings
        self.countLabels = countLabels
        mainBugName = mainBug
        if let mainBug {
            let named = variants.first { $0.name == mainBug }
            precondition(
                named?.kind == .buggy && named?.exploration != nil,
                "mainBug must name a buggy variant with an exploration"
            )
        }
    }

    /// The variant with this name, if any.
    public func variant(named name: String) -> Variant? {
        variants.first { $0.name == name }
    }

    /// The workload a variant runs with, before command-line overrides.
    public func workload(for variant: Variant) -> Workload {
        variant.workload ?? workload
    }
}

extension Sequence where Element == Lesson {
    /// The lesson named by `identifier`: its number (`"1"`, `"01"`) or its slug.
    public func lesson(identifiedBy identifier: String) -> Lesson? {
        if let number = Int(identifier) {
            return first { $0.number == number }
        }
        return first { $0.slug == identifier.lowercased() }
    }
}

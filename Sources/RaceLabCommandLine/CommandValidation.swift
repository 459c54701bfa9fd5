import RaceLab

/// What a command's checks see once its options are read: which options were given, the lessons,
/// and the command's argument; and the checks that several commands make of a lesson and a variant.
/// Every error it throws carries the command, so the usage printed under it is that command's.
struct CommandValidation {
    let reader: OptionReader
    /// The tool's lessons.
    let lessons: [Lesson]
    /// The arguments as given, in order: at most one unless the command's argument is repeatable.
    let arguments: [String]
    /// The argument as given; nil when the command takes none or it was left out.
    var argument: String? { arguments.first }

    /// A usage error for this command.
    func error(_ message: String) -> UsageError {
        reader.error(message)
    }

    /// Whether `option` was given.
    func wasGiven(_ option: String) -> Bool {
        reader.wasGiven(option)
    }

    /// Whether the argument asks for every lesson: 'all', or none where it may be left out.
    var isAll: Bool {
        guard let argument else { return true }
        return argument == "all" && reader.command?.argument?.acceptsAll == true
    }

    /// The lesson the argument names, by number or slug.
    func lesson() throws(UsageError) -> Lesson {
        try lesson(argument ?? "")
    }

    /// The lesson `identifier` names; refuses an unknown one with the nearest slug.
    func lesson(_ identifier: String) throws(UsageError) -> Lesson {
        if let lesson = lessons.lesson(identifiedBy: identifier) { return lesson }
        let known = lessons.map { "\($0.number) (\($0.slug))" }.joined(separator: ", ")
        throw error(
            "unknown lesson \(quoted(identifier)); lessons are: \(known)"
                + Suggestion.clause(for: identifier, among: lessons.map(\.slug))
        )
    }

    /// Refuses a variant `lesson` does not have: one line with the nearest name, then the variants
    /// on lines of their own, wrapped to the report width (a lesson can have a dozen).
    func checkVariant(_ name: String, of lesson: Lesson) throws(UsageError) {
        guard lesson.variant(named: name) == nil else { return }
        let names = lesson.variants.map(\.name)
        throw error(
            "lesson \(lesson.number) has no variant \(quoted(name))" + Suggestion.clause(for: name, among: names)
                + "\n" + Self.listed("its variants are", names)
        )
    }

    /// `  its variants are: a, b, c` under an error line, wrapped to the report width.
    static func listed(_ title: String, _ names: [String]) -> String {
        wrapped("  \(title): " + names.joined(separator: ", ")).joined(separator: "\n")
    }

    /// The names of `lesson`'s explorable variants; refuses a lesson without one, and a `variant`
    /// that is unknown or not explorable.
    func explorableVariants(of lesson: Lesson, checking variant: String?) throws(UsageError) -> [String] {
        let explorable = lesson.variants.filter { $0.exploration != nil }.map(\.name)
        if explorable.isEmpty { throw error("lesson \(lesson.number) has no explorable variant yet") }
        if let variant {
            try checkVariant(variant, of: lesson)
            guard explorable.contains(variant) else {
                throw error(
                    "variant \(quoted(variant)) has no exploration\n"
                        + Self.listed("explorable variants are", explorable)
                )
            }
        }
        return explorable
    }
}

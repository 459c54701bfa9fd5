import RaceLab

/// What `explore` was asked to do.
struct ExploreRequest: Equatable {
    var lesson: Int
    /// Only this variant; nil for every variant of the lesson that has an exploration.
    var variant: String?
    var strategy: ExplorationOptions.Strategy = .dfs
    var threads: Int?
    var preemptions: Int = 2
    var schedules: Int?
    var seed: UInt64 = 0
    /// Run exactly this schedule instead of searching.
    var replay: Schedule?
    var stepBound: Int = 1_000
    var json: Bool = false

    var options: ExplorationOptions {
        ExplorationOptions(
            strategy: strategy,
            threads: threads,
            preemptions: preemptions,
            schedules: schedules,
            seed: seed,
            stepBound: stepBound
        )
    }

    /// Upper bounds that keep a typo from starting an exploration of days.
    static let maximumThreads = 16
    static let maximumSchedules = 10_000_000

    /// Parses `explore`'s arguments; nil when they ask for help.
    static func parse(_ arguments: [String], lessons: [Lesson]) throws(UsageError) -> ExploreRequest? {
        var lessonIdentifier: String?
        var request = ExploreRequest(lesson: 0)
        var remaining = Array(arguments.reversed())
        func fail(_ message: String) -> UsageError { UsageError(message, command: .explore) }
        func integer(_ text: String, _ option: String, min: Int, max: Int) throws(UsageError) -> Int {
            guard let value = Int(text), value >= min, value <= max else {
                throw fail("\(option) must be an integer from \(min) to \(max), got '\(text)'")
            }
            return value
        }
        while let argument = remaining.popLast() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popLast(), !next.hasPrefix("--") else {
                    throw fail("option \(name) needs a value")
                }
                return next
            }
            switch name {
            case "-h", "--help": return nil
            case "--variant": request.variant = try value()
            case "--strategy":
                let text = try value()
                guard let strategy = ExplorationOptions.Strategy(rawValue: text) else {
                    throw fail("--strategy must be dfs, pct or random, got '\(text)'")
                }
                request.strategy = strategy
            case "--threads": request.threads = try integer(value(), name, min: 1, max: maximumThreads)
            case "--preemptions": request.preemptions = try integer(value(), name, min: 0, max: 100)
            case "--schedules": request.schedules = try integer(value(), name, min: 1, max: maximumSchedules)
            case "--steps": request.stepBound = try integer(value(), name, min: 1, max: 10_000_000)
            case "--seed":
                let text = try value()
                let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
                guard let parsed else {
                    throw fail("--seed must be a non-negative integer (decimal or 0x hex), got '\(text)'")
                }
                request.seed = parsed
            case "--replay":
                let text = try value()
                guard let schedule = Schedule(replayString: text) else {
                    throw fail("--replay needs a replay string like '2:0.1.0.1', got '\(text)'")
                }
                request.replay = schedule
            case "--json":
                if inlineValue != nil { throw fail("option --json takes no value") }
                request.json = true
            default:
                if argument.hasPrefix("-") && argument.count > 1 {
                    throw fail("unknown option '\(argument)' for 'explore'")
                }
                if let lessonIdentifier {
                    throw fail("one lesson at a time (got '\(lessonIdentifier)' and '\(argument)')")
                }
                lessonIdentifier = argument
            }
        }
        guard let lessonIdentifier else { throw fail("which lesson? give a number or a slug") }
        guard let lesson = lessons.lesson(identifiedBy: lessonIdentifier) else {
            let known = lessons.map { "\($0.number) (\($0.slug))" }.joined(separator: ", ")
            throw fail("unknown lesson '\(lessonIdentifier)'; lessons are: \(known)")
        }
        request.lesson = lesson.number
        let explorable = lesson.variants.filter { $0.exploration != nil }.map(\.name)
        if explorable.isEmpty { throw fail("lesson \(lesson.number) has no explorable variant yet") }
        if let variant = request.variant {
            guard lesson.variant(named: variant) != nil else {
                throw fail(
                    "lesson \(lesson.number) has no variant '\(variant)'; its variants are: "
                        + lesson.variants.map(\.name).joined(separator: ", ")
                )
            }
            guard explorable.contains(variant) else {
                throw fail(
                    "variant '\(variant)' has no exploration; explorable variants are: "
                        + explorable.joined(separator: ", ")
                )
            }
        }
        if request.replay != nil && request.variant == nil {
            guard explorable.count == 1 else {
                throw fail("--replay needs --variant (one of: \(explorable.joined(separator: ", ")))")
            }
            request.variant = explorable[0]
        }
        return request
    }
}

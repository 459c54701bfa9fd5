import RaceLab

/// Turns the tool's arguments into a `ParsedCommand`, so that bad input is refused with one clear
/// line before anything runs. Each command's options are read by one `OptionReader`, which reads
/// and checks every value; this type knows which options each command takes, and its lessons.
struct ArgumentParser {
    let lessons: [Lesson]

    /// Upper bounds that keep a typo (`--iterations 10000000000`) from starting a run of days.
    static let maximumTrials = 1_000_000
    static let maximumIterations = 10_000_000

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        guard let first = arguments.first else { return .help(nil) }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            return .help(nil)
        case "--version":
            return .version
        case "help":
            guard let topic = rest.first else { return .help(nil) }
            guard rest.count == 1, let command = CommandName(rawValue: topic) else {
                let commands = CommandName.allCases.map(\.rawValue)
                throw UsageError(
                    "no help for \(quoted(rest.joined(separator: " "))); commands are: "
                        + commands.joined(separator: ", ")
                        + (rest.count == 1 ? Suggestion.clause(for: topic, among: commands) : "")
                )
            }
            return .help(command)
        case "list":
            return try parseList(rest)
        case "run":
            return try parseRun(rest, as: .run)
        case "power":
            return try parseRun(rest, as: .power)
        case "matrix":
            return try parseMatrix(rest)
        case "explore":
            return try parseExplore(rest)
        case "play":
            return try parsePlay(rest)
        case ChildRequest.command:
            guard let request = try? ChildRequest(arguments: rest) else {
                throw UsageError("\(ChildRequest.command) is internal to racelab")
            }
            return .child(request)
        case WorkerRequest.command:
            return try parseWorker(rest)
        default:
            if first.hasPrefix("-") {
                throw UsageError(
                    "unknown option \(quoted(first))" + Suggestion.clause(for: first, among: ["--help", "--version"])
                )
            }
            throw UsageError(
                "unknown command \(quoted(first))"
                    + Suggestion.clause(for: first, among: CommandName.allCases.map(\.rawValue))
            )
        }
    }

    private func parseList(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var json = false
        var reader = OptionReader(arguments, command: .list)
        while let argument = try reader.next() {
            switch argument {
            case "-h", "--help": return .help(.list)
            case "--json":
                try reader.flag(argument)
                json = true
            default: throw reader.unexpected(argument)
            }
        }
        return .list(json: json)
    }

    /// Parses `run` and `power`, which take the same lesson and options (but `--junit`, `run`'s only).
    private func parseRun(_ arguments: [String], as command: CommandName) throws(UsageError) -> ParsedCommand {
        var request = RunRequest(lessons: [])
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: command)
        while let argument = try reader.next() {
            switch argument {
            case "-h", "--help": return .help(command)
            case "--variant": request.variant = try reader.value(for: argument)
            case "--trials": request.trials = try reader.positiveInteger(argument, max: Self.maximumTrials)
            case "--iterations": request.iterations = try reader.positiveInteger(argument, max: Self.maximumIterations)
            case "--seed": request.seed = try reader.seed(argument)
            case "--noise" where command == .run: request.noise = try reader.onOff(argument)
            case "--noise":
                throw reader.error("power measures with noise off and with noise on; it takes no --noise")
            case "--timeout": request.timeout = try reader.seconds(argument)
            case "--json":
                try reader.flag(argument)
                request.json = true
            case "--junit" where command == .run: request.junit = try reader.outputFile(argument)
            case "--html" where command == .run: request.html = try reader.outputFile(argument)
            default: try takeLesson(argument, into: &lessonIdentifier, reader: reader, all: true)
            }
        }
        guard let lessonIdentifier else { throw reader.error("which lesson? give a number, a slug or 'all'") }
        if lessonIdentifier == "all" {
            if let variant = request.variant {
                throw reader.error("--variant \(quoted(variant)) needs a single lesson, not 'all'")
            }
            request.lessons = lessons.map(\.number)
        } else {
            let lesson = try self.lesson(lessonIdentifier, reader: reader)
            if let variant = request.variant { try checkVariant(variant, of: lesson, reader: reader) }
            request.lessons = [lesson.number]
        }
        return command == .power ? .power(request) : .run(request)
    }

    /// `matrix [<lesson|all>] [options]`: every lesson (and the TSan calibration) unless one is named.
    private func parseMatrix(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var request = MatrixRequest(lessons: [])
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: .matrix)
        while let argument = try reader.next() {
            switch argument {
            case "-h", "--help": return .help(.matrix)
            case "--trials": request.trials = try reader.positiveInteger(argument, max: Self.maximumTrials)
            case "--budget": request.budget = try reader.seconds(argument)
            case "--seed": request.seed = try reader.seed(argument)
            case "--noise": request.noise = try reader.onOff(argument)
            case "--timeout": request.timeout = try reader.seconds(argument)
            case "--expectations": request.expectations = try reader.value(for: argument)
            case "--probes": request.probes = try reader.value(for: argument)
            case "--logs": request.logs = try reader.value(for: argument)
            case "--executable": request.executable = try reader.value(for: argument)
            case "--junit": request.junit = try reader.outputFile(argument)
            case "--json":
                try reader.flag(argument)
                request.json = true
            default: try takeLesson(argument, into: &lessonIdentifier, reader: reader, all: true)
            }
        }
        if let lessonIdentifier, lessonIdentifier != "all" {
            request.lessons = [try lesson(lessonIdentifier, reader: reader).number]
        } else {
            request.lessons = lessons.map(\.number)
            request.calibration = true
        }
        return .matrix(request)
    }

    /// `explore <lesson|all> [options]`: one lesson's explorable variants, or one of them, or every
    /// lesson's.
    private func parseExplore(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var request = ExploreRequest(lessons: [])
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: .explore)
        while let argument = try reader.next() {
            switch argument {
            case "-h", "--help": return .help(.explore)
            case "--variant": request.variant = try reader.value(for: argument)
            case "--strategy": request.strategy = try reader.choice(argument, of: ExplorationOptions.Strategy.self)
            case "--reduction":
                request.reduction = try reader.choice(argument, of: ExplorationOptions.Reduction.self)
            case "--threads": request.threads = try reader.integer(argument, in: 1...ExploreRequest.maximumThreads)
            case "--preemptions":
                request.preemptions = try reader.integer(argument, in: 0...ExploreRequest.maximumPreemptions)
            case "--schedules":
                request.schedules = try reader.integer(argument, in: 1...ExploreRequest.maximumSchedules)
            case "--steps": request.stepBound = try reader.integer(argument, in: 1...ExploreRequest.maximumSteps)
            case "--stall": request.stall = try reader.seconds(argument)
            case "--seed": request.seed = try reader.seed(argument)
            case "--marks": request.marks = try reader.onOff(argument)
            case "--replay":
                request.replay = try reader.schedule(argument, maximumThreads: ExploreRequest.maximumThreads)
            case "--html": request.html = try reader.outputFile(argument)
            case "--trace": request.trace = try reader.outputFile(argument)
            case "--verbose":
                try reader.flag(argument)
                request.verbose = true
            case "--json":
                try reader.flag(argument)
                request.json = true
            default: try takeLesson(argument, into: &lessonIdentifier, reader: reader, all: true)
            }
        }
        guard let lessonIdentifier else { throw reader.error("which lesson? give a number, a slug or 'all'") }
        // A replay refuses every search option below, with its own reason.
        if request.replay == nil { try refuseIgnoredByStrategy(request.strategy, reader: reader) }
        if lessonIdentifier == "all" {
            for option in ["--variant", "--replay", "--html", "--trace"] where reader.wasGiven(option) {
                throw reader.error("\(option) needs a single lesson, not 'all'")
            }
            request.lessons = lessons.filter { $0.variants.contains { $0.exploration != nil } }.map(\.number)
            if request.lessons.isEmpty { throw reader.error("no lesson has an explorable variant yet") }
            request.all = true
            return .explore(request)
        }
        let lesson = try self.lesson(lessonIdentifier, reader: reader)
        request.lessons = [lesson.number]
        let explorable = try explorableVariants(of: lesson, checking: request.variant, reader: reader)
        if let replay = request.replay {
            // A replay runs the one schedule it names: search options would be ignored, silently.
            for option in ["--strategy", "--reduction", "--schedules", "--seed", "--preemptions"]
            where reader.wasGiven(option) {
                throw reader.error("--replay runs one given schedule; \(option) is for a search and cannot go with it")
            }
            if let threads = request.threads, threads != replay.threads {
                throw reader.error(
                    "--replay names \(replay.threads) threads but --threads is \(threads); give one of the two"
                )
            }
            if let stepBound = request.stepBound, replay.choices.count > stepBound {
                throw reader.error(
                    "--replay names \(replay.choices.count) choices, more than the \(stepBound) steps "
                        + "an execution may take (--steps)"
                )
            }
        }
        if request.replay != nil && request.variant == nil {
            guard explorable.count == 1 else {
                throw reader.error("--replay needs --variant (one of: \(explorable.joined(separator: ", ")))")
            }
            request.variant = explorable[0]
        }
        return .explore(request)
    }

    /// Refuses an explore option that `strategy` does not use: it would be ignored, silently.
    private func refuseIgnoredByStrategy(
        _ strategy: ExplorationOptions.Strategy,
        reader: OptionReader
    ) throws(UsageError) {
        let unused: [(option: String, usedBy: [ExplorationOptions.Strategy])] = [
            ("--reduction", [.dfs]),
            ("--seed", [.pct, .random]),
            ("--preemptions", [.dfs, .pct]),
        ]
        for (option, usedBy) in unused where reader.wasGiven(option) && !usedBy.contains(strategy) {
            let users = usedBy.map(\.rawValue).joined(separator: " and ")
            throw reader.error(
                "\(option) is for the \(users) strateg\(usedBy.count == 1 ? "y" : "ies"); "
                    + "--strategy \(strategy.rawValue) would ignore it"
            )
        }
    }

    /// `play <lesson> [--variant NAME] [--threads K]`: one explorable variant, by default the
    /// lesson's first buggy one.
    private func parsePlay(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var request = PlayRequest(lesson: 0, variant: "")
        var variant: String?
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: .play)
        while let argument = try reader.next() {
            switch argument {
            case "-h", "--help": return .help(.play)
            case "--variant": variant = try reader.value(for: argument)
            case "--threads": request.threads = try reader.integer(argument, in: 1...PlayRequest.maximumThreads)
            default: try takeLesson(argument, into: &lessonIdentifier, reader: reader, all: false)
            }
        }
        guard let lessonIdentifier else { throw reader.error("which lesson? give a number or a slug") }
        let lesson = try self.lesson(lessonIdentifier, reader: reader)
        let explorable = try explorableVariants(of: lesson, checking: variant, reader: reader)
        request.lesson = lesson.number
        request.variant =
            variant ?? lesson.variants.first { $0.kind == .buggy && $0.exploration != nil }?.name ?? explorable[0]
        return .play(request)
    }

    /// The names of `lesson`'s explorable variants; refuses a lesson without one, and a `variant`
    /// that is unknown or not explorable.
    private func explorableVariants(
        of lesson: Lesson,
        checking variant: String?,
        reader: OptionReader
    ) throws(UsageError) -> [String] {
        let explorable = lesson.variants.filter { $0.exploration != nil }.map(\.name)
        if explorable.isEmpty { throw reader.error("lesson \(lesson.number) has no explorable variant yet") }
        if let variant {
            try checkVariant(variant, of: lesson, reader: reader)
            guard explorable.contains(variant) else {
                throw reader.error(
                    "variant \(quoted(variant)) has no exploration; explorable variants are: "
                        + explorable.joined(separator: ", ")
                )
            }
        }
        return explorable
    }

    /// `_worker <request>`, as `WorkerProcess.launch` starts a worker: its lesson and worker must
    /// exist; the worker's own arguments are its business, so they are passed on unread.
    private func parseWorker(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        guard let request = try? WorkerRequest(commandLine: arguments) else {
            throw UsageError("\(WorkerRequest.command) is internal to racelab")
        }
        let reader = OptionReader([], command: nil)
        let lesson = try self.lesson(String(request.lesson), reader: reader)
        guard lesson.workers.contains(where: { $0.name == request.worker }) else {
            throw reader.error("lesson \(lesson.number) has no worker \(quoted(request.worker))")
        }
        return .runWorker(request)
    }

    /// Takes `argument` as the command's one lesson; refuses an unknown option and a second lesson.
    ///
    /// - Parameter all: whether the command also takes 'all', which the error then suggests.
    private func takeLesson(
        _ argument: String,
        into identifier: inout String?,
        reader: OptionReader,
        all: Bool
    ) throws(UsageError) {
        if argument.hasPrefix("-") && argument.count > 1 { throw reader.unexpected(argument) }
        if let identifier {
            throw reader.error(
                "one lesson at a time (got \(quoted(identifier)) and \(quoted(argument)))"
                    + (all ? "; use 'all' for every lesson" : "")
            )
        }
        identifier = argument
    }

    private func lesson(_ identifier: String, reader: OptionReader) throws(UsageError) -> Lesson {
        if let lesson = lessons.lesson(identifiedBy: identifier) { return lesson }
        let known = lessons.map { "\($0.number) (\($0.slug))" }.joined(separator: ", ")
        throw reader.error(
            "unknown lesson \(quoted(identifier)); lessons are: \(known)"
                + Suggestion.clause(for: identifier, among: lessons.map(\.slug))
        )
    }

    private func checkVariant(_ name: String, of lesson: Lesson, reader: OptionReader) throws(UsageError) {
        guard lesson.variant(named: name) == nil else { return }
        let names = lesson.variants.map(\.name)
        throw reader.error(
            "lesson \(lesson.number) has no variant \(quoted(name)); its variants are: "
                + names.joined(separator: ", ") + Suggestion.clause(for: name, among: names)
        )
    }
}

import RaceLab

/// Turns the tool's arguments into a `ParsedCommand`, checking every value in one place, so that
/// bad input is refused with one clear line before anything runs.
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
                throw UsageError(
                    "no help for '\(rest.joined(separator: " "))'; commands are: "
                        + CommandName.allCases.map(\.rawValue).joined(separator: ", ")
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
            return try ExploreRequest.parse(rest, lessons: lessons).map(ParsedCommand.explore) ?? .help(.explore)
        case IsolatedRun.childCommand:
            return try parseChild(rest)
        case WorkerProcess.command:
            return try parseWorker(rest)
        default:
            if first.hasPrefix("-") { throw UsageError("unknown option '\(first)'") }
            throw UsageError("unknown command '\(first)'")
        }
    }

    private func parseList(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var json = false
        for argument in arguments {
            switch argument {
            case "-h", "--help": return .help(.list)
            case "--json": json = true
            default: throw unexpected(argument, in: .list)
            }
        }
        return .list(json: json)
    }

    /// Parses `run` and `power`, which take the same lesson and options; errors name `command`.
    private func parseRun(_ arguments: [String], as command: CommandName) throws(UsageError) -> ParsedCommand {
        do {
            let request = try parseRunRequest(arguments, as: command)
            guard let request else { return .help(command) }
            return command == .power ? .power(request) : .run(request)
        } catch {
            throw UsageError(error.message, command: command)
        }
    }

    /// The request in `arguments`, or nil when they ask for help.
    private func parseRunRequest(_ arguments: [String], as command: CommandName) throws(UsageError) -> RunRequest? {
        var request = RunRequest(lessons: [])
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: command)
        while let argument = reader.next() {
            switch argument {
            case "-h", "--help": return nil
            case "--variant": request.variant = try reader.value(for: argument)
            case "--trials":
                request.trials = try positiveInteger(reader.value(for: argument), argument, max: Self.maximumTrials)
            case "--iterations":
                request.iterations = try positiveInteger(
                    reader.value(for: argument),
                    argument,
                    max: Self.maximumIterations
                )
            case "--seed": request.seed = try seed(reader.value(for: argument))
            case "--noise": request.noise = try onOff(reader.value(for: argument), argument)
            case "--timeout": request.timeout = try seconds(reader.value(for: argument), argument)
            case "--json":
                try reader.rejectValue(for: argument)
                request.json = true
            case "--junit" where command == .run: request.junit = try reader.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument.count > 1 { throw unexpected(argument, in: command) }
                if let lessonIdentifier {
                    throw UsageError(
                        "one lesson at a time (got '\(lessonIdentifier)' and '\(argument)'); use 'all' for every lesson"
                    )
                }
                lessonIdentifier = argument
            }
        }
        guard let lessonIdentifier else { throw UsageError("which lesson? give a number, a slug or 'all'") }
        if lessonIdentifier == "all" {
            if let variant = request.variant {
                throw UsageError("--variant '\(variant)' needs a single lesson, not 'all'")
            }
            request.lessons = lessons.map(\.number)
        } else {
            let lesson = try self.lesson(lessonIdentifier)
            if let variant = request.variant, lesson.variant(named: variant) == nil {
                throw UsageError(
                    "lesson \(lesson.number) has no variant '\(variant)'; its variants are: "
                        + lesson.variants.map(\.name).joined(separator: ", ")
                )
            }
            request.lessons = [lesson.number]
        }
        return request
    }

    private func parseChild(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        guard arguments.count == 10 || arguments.count == 12 else {
            throw UsageError("\(IsolatedRun.childCommand) is internal to racelab")
        }
        // The matrix also runs the TSan calibration, which is not one of the tool's lessons.
        let lesson =
            arguments[0] == String(ThreadSanitizerCalibration.lesson.number)
            ? ThreadSanitizerCalibration.lesson : try self.lesson(arguments[0])
        guard lesson.variant(named: arguments[1]) != nil else { throw UsageError("no variant '\(arguments[1])'") }
        var trials = 0
        var iterations = 0
        var seed: UInt64 = 0
        var noise = true
        var budget: Double?
        var reader = OptionReader(Array(arguments.dropFirst(2)), command: nil)
        while let argument = reader.next() {
            switch argument {
            case "--trials":
                trials = try positiveInteger(reader.value(for: argument), argument, max: Self.maximumTrials)
            case "--iterations":
                iterations = try positiveInteger(reader.value(for: argument), argument, max: Self.maximumIterations)
            case "--seed": seed = try self.seed(reader.value(for: argument))
            case "--noise": noise = try onOff(reader.value(for: argument), argument)
            case "--budget": budget = try seconds(reader.value(for: argument), argument)
            default: throw UsageError("unknown option '\(argument)'")
            }
        }
        return .runVariantChild(
            lesson: lesson.number,
            variant: arguments[1],
            trials: trials,
            iterations: iterations,
            seed: seed,
            noise: noise,
            budget: budget
        )
    }

    /// `matrix [<lesson|all>] [options]`: every lesson (and the TSan calibration) unless one is named.
    private func parseMatrix(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        var request = MatrixRequest(lessons: [])
        var lessonIdentifier: String?
        var reader = OptionReader(arguments, command: .matrix)
        do throws(UsageError) {
            while let argument = reader.next() {
                switch argument {
                case "-h", "--help": return .help(.matrix)
                case "--trials":
                    request.trials = try positiveInteger(reader.value(for: argument), argument, max: Self.maximumTrials)
                case "--budget": request.budget = try seconds(reader.value(for: argument), argument)
                case "--seed": request.seed = try seed(reader.value(for: argument))
                case "--noise": request.noise = try onOff(reader.value(for: argument), argument)
                case "--timeout": request.timeout = try seconds(reader.value(for: argument), argument)
                case "--expectations": request.expectations = try reader.value(for: argument)
                case "--probes": request.probes = try reader.value(for: argument)
                case "--logs": request.logs = try reader.value(for: argument)
                case "--executable": request.executable = try reader.value(for: argument)
                case "--junit": request.junit = try reader.value(for: argument)
                case "--json":
                    try reader.rejectValue(for: argument)
                    request.json = true
                default:
                    if argument.hasPrefix("-") && argument.count > 1 { throw unexpected(argument, in: .matrix) }
                    if let lessonIdentifier {
                        throw UsageError(
                            "one lesson at a time (got '\(lessonIdentifier)' and '\(argument)'); use 'all' for every lesson"
                        )
                    }
                    lessonIdentifier = argument
                }
            }
            if lessonIdentifier == nil || lessonIdentifier == "all" {
                request.lessons = lessons.map(\.number)
                request.calibration = true
            } else if let lessonIdentifier {
                request.lessons = [try lesson(lessonIdentifier).number]
            }
        } catch {
            throw UsageError(error.message, command: .matrix)
        }
        return .matrix(request)
    }

    /// `_worker <lesson> <worker> <parent-pid> [arguments...]`: the worker's own arguments are its
    /// business, so they are passed on unread.
    private func parseWorker(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        guard arguments.count >= 3, let parent = Int32(arguments[2]), parent >= 0 else {
            throw UsageError("\(WorkerProcess.command) is internal to racelab")
        }
        let lesson = try self.lesson(arguments[0])
        guard lesson.workers.contains(where: { $0.name == arguments[1] }) else {
            throw UsageError("lesson \(lesson.number) has no worker '\(arguments[1])'")
        }
        return .runWorker(
            lesson: lesson.number,
            worker: arguments[1],
            parent: parent,
            arguments: Array(arguments.dropFirst(3))
        )
    }

    private func lesson(_ identifier: String) throws(UsageError) -> Lesson {
        if let lesson = lessons.lesson(identifiedBy: identifier) { return lesson }
        let known = lessons.map { "\($0.number) (\($0.slug))" }.joined(separator: ", ")
        throw UsageError("unknown lesson '\(identifier)'; lessons are: \(known)", command: .run)
    }

    private func unexpected(_ argument: String, in command: CommandName) -> UsageError {
        argument.hasPrefix("-")
            ? UsageError("unknown option '\(argument)' for '\(command.rawValue)'", command: command)
            : UsageError("unexpected argument '\(argument)' for '\(command.rawValue)'", command: command)
    }

    private func positiveInteger(_ text: String, _ option: String, max: Int) throws(UsageError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("\(option) must be a positive integer, got '\(text)'", command: .run)
        }
        guard value <= max else { throw UsageError("\(option) must be at most \(max), got \(value)", command: .run) }
        return value
    }

    private func seed(_ text: String) throws(UsageError) -> UInt64 {
        let value = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let value else {
            throw UsageError("--seed must be a non-negative integer (decimal or 0x hex), got '\(text)'", command: .run)
        }
        return value
    }

    private func onOff(_ text: String, _ option: String) throws(UsageError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw UsageError("\(option) must be 'on' or 'off', got '\(text)'", command: .run)
        }
    }

    private func seconds(_ text: String, _ option: String) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw UsageError("\(option) must be a positive number of seconds, got '\(text)'", command: .run)
        }
        return value
    }
}

/// Walks a command's arguments, handing out option values; accepts `--name value` and `--name=value`.
private struct OptionReader {
    private var arguments: [String]
    private var pendingValue: String?
    private let command: CommandName?

    init(_ arguments: [String], command: CommandName?) {
        self.arguments = arguments.reversed()
        self.command = command
    }

    mutating func next() -> String? {
        guard let argument = arguments.popLast() else { return nil }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            return String(argument[..<equals])
        }
        pendingValue = nil
        return argument
    }

    /// Refuses `--flag=value` for a flag that takes no value.
    mutating func rejectValue(for option: String) throws(UsageError) {
        if pendingValue != nil { throw UsageError("option \(option) takes no value", command: command) }
    }

    mutating func value(for option: String) throws(UsageError) -> String {
        if let pendingValue {
            self.pendingValue = nil
            return pendingValue
        }
        guard let value = arguments.popLast(), !value.hasPrefix("--") else {
            throw UsageError("option \(option) needs a value", command: command)
        }
        return value
    }
}

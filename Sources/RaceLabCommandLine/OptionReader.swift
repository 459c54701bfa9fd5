import RaceLab

/// Walks one command's arguments: hands out option names and positional arguments, and reads each
/// option's value, checking its form and range. The one place where a value is read and checked:
/// every command's parser calls it, so the same option is accepted, refused and explained alike
/// everywhere.
///
/// Accepts `--name value` and `--name=value`. A value that starts with `--` is taken for the next
/// option, so `--trials --json` says that `--trials` needs a value. A repeated option is refused
/// rather than read again: with "the last one wins", `--trials 5 ... --trials 50` would run ten times
/// what one of the two lines meant, silently. Every error it throws is one line and carries `command`,
/// so the usage printed under it is that command's; every piece of the user's input it echoes goes
/// through `quoted(_:)`, so it is escaped and short.
struct OptionReader {
    /// The command being read; nil for the tool's hidden commands, whose errors show the tool's usage.
    let command: CommandDescriptor?
    private var arguments: [String]
    private var pendingValue: String?
    /// The options read so far, to refuse a repeated one.
    private(set) var given: Set<String> = []

    init(_ arguments: [String], command: CommandDescriptor?) {
        self.arguments = arguments.reversed()
        self.command = command
    }

    /// The next option name (without its `=value`) or positional argument; nil at the end.
    ///
    /// - Throws: when the option was given before.
    mutating func next() throws(UsageError) -> String? {
        guard let argument = arguments.popLast() else { return nil }
        let name: String
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            name = String(argument[..<equals])
        } else {
            pendingValue = nil
            name = argument
        }
        if name.hasPrefix("--") {
            guard given.insert(name).inserted else { throw error("option \(quoted(name)) is given twice") }
        }
        return name
    }

    /// Whether `option` was read so far.
    func wasGiven(_ option: String) -> Bool {
        given.contains(option)
    }

    /// A usage error for this command.
    func error(_ message: String) -> UsageError {
        UsageError(message, command: command)
    }

    /// The error for an argument this command does not take: an unknown option, with the option it
    /// most likely meant (`--trails`: did you mean `--trials`?), or a stray word.
    func unexpected(_ argument: String) -> UsageError {
        let option = argument.hasPrefix("-")
        let what = option ? "unknown option" : "unexpected argument"
        let known = command?.optionNames ?? []
        return error(
            "\(what) \(quoted(argument))" + (command.map { " for '\($0.name)'" } ?? "")
                + (option ? Suggestion.clause(for: argument, among: known) : "")
        )
    }

    /// Reads an option that takes no value: refuses `--flag=value`.
    mutating func flag(_ option: String) throws(UsageError) {
        if pendingValue != nil { throw error("option \(option) takes no value") }
    }

    /// The text of `option`'s value.
    mutating func value(for option: String) throws(UsageError) -> String {
        if let pendingValue {
            self.pendingValue = nil
            return pendingValue
        }
        guard let value = arguments.popLast(), !value.hasPrefix("--") else {
            throw error("option \(option) needs a value")
        }
        return value
    }

    /// A count from 1 to `max`, e.g. `--trials`.
    mutating func positiveInteger(_ option: String, max: Int) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let value = Int(text), value > 0 else {
            throw error("\(option) must be a positive integer, got \(quoted(text))")
        }
        guard value <= max else { throw error("\(option) must be at most \(max), got \(value)") }
        return value
    }

    /// An integer in `range`, e.g. `--threads`.
    mutating func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let value = Int(text), range.contains(value) else {
            throw error(
                "\(option) must be an integer from \(range.lowerBound) to \(range.upperBound), got \(quoted(text))"
            )
        }
        return value
    }

    /// A shard `I/N` with 1 <= I <= N <= `max`, e.g. `--shard 2/3`.
    mutating func shard(_ option: String, max: Int) throws(UsageError) -> ExploreRequest.Shard {
        let text = try value(for: option)
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            (1...max).contains(count), (1...count).contains(index)
        else {
            throw error("\(option) must be I/N with 1 <= I <= N <= \(max) (shard I of N), got \(quoted(text))")
        }
        return ExploreRequest.Shard(index: index, count: count)
    }

    /// A seed, decimal or `0x` hex.
    mutating func seed(_ option: String) throws(UsageError) -> UInt64 {
        let text = try value(for: option)
        let value = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let value else {
            throw error("\(option) must be a non-negative integer (decimal or 0x hex), got \(quoted(text))")
        }
        return value
    }

    /// `on` or `off`.
    mutating func onOff(_ option: String) throws(UsageError) -> Bool {
        let text = try value(for: option)
        switch text {
        case "on": return true
        case "off": return false
        default: throw error("\(option) must be 'on' or 'off', got \(quoted(text))")
        }
    }

    /// The durations a time option accepts: from a tenth of a second (less cannot even start a
    /// process) to a week (more is a typo, and `1e300` seconds would overflow every conversion to an
    /// integer or a `Duration` downstream).
    static let secondsRange: ClosedRange<Double> = 0.1...604_800

    /// A number of seconds in `secondsRange`, e.g. `--timeout`.
    mutating func seconds(_ option: String) throws(UsageError) -> Double {
        let text = try value(for: option)
        guard let value = Double(text), Self.secondsRange.contains(value) else {
            throw error("\(option) must be a number of seconds from 0.1 to 604800 (7 days), got \(quoted(text))")
        }
        return value
    }

    /// One of `choices`, named by its raw value: `--strategy must be dfs, pct or random, got 'bfs'`.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ option: String,
        of _: Choice.Type
    ) throws(UsageError)
        -> Choice
    where Choice.RawValue == String {
        let text = try value(for: option)
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue)
            let list =
                names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            throw error("\(option) must be \(list), got \(quoted(text))")
        }
        return choice
    }

    /// A schedule's replay string, as a report prints it, for at most `maximumThreads` threads.
    ///
    /// A choice names a thread the program started: one of its own (below the thread count) or one
    /// it spawned while it ran. A program cannot start more threads than it takes steps, so a choice
    /// of `maximumThreads + steps` or more cannot fit, whatever the program.
    mutating func schedule(_ option: String, maximumThreads: Int) throws(UsageError) -> Schedule {
        let text = try value(for: option)
        let schedule: Schedule
        do {
            schedule = try Schedule.parse(text)
        } catch let refusal {
            throw error("\(option) \(quoted(text)): \(refusal.reason)")
        }
        guard schedule.threads <= maximumThreads else {
            throw error("\(option) names \(schedule.threads) threads; a program here has at most \(maximumThreads)")
        }
        let limit = maximumThreads + schedule.choices.count
        if let choice = schedule.choices.first(where: { $0 >= limit }) {
            throw error("\(option) chooses thread \(choice), which no program of \(schedule.threads) threads can reach")
        }
        return schedule
    }

    /// A path to write a file to, checked before anything runs: a run of minutes must not end in
    /// "cannot write the report". The folder must exist (nothing is created) and be writable, and
    /// the path must not be a folder.
    mutating func outputFile(_ option: String) throws(UsageError) -> String {
        let path = try value(for: option)
        if let problem = OutputPath.problem(with: path) {
            throw error("\(option) \(quoted(path)): \(problem)")
        }
        return path
    }
}

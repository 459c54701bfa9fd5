import RaceLab

/// Walks one command's arguments: hands out option names and positional arguments, and reads each
/// option's value, checking its form and range. The one place where a value is read and checked:
/// every command's parser calls it, so the same option is accepted, refused and explained alike
/// everywhere.
///
/// Accepts `--name value` and `--name=value`. A value that starts with `--` is taken for the next
/// option, so `--trials --json` says that `--trials` needs a value. A repeated option is read again
/// (the last one wins). Every error it throws is one line and carries `command`, so the usage
/// printed under it is that command's.
struct OptionReader {
    /// The command being read; nil for the tool's hidden commands, whose errors show the tool's usage.
    let command: CommandName?
    private var arguments: [String]
    private var pendingValue: String?

    init(_ arguments: [String], command: CommandName?) {
        self.arguments = arguments.reversed()
        self.command = command
    }

    /// The next option name (without its `=value`) or positional argument; nil at the end.
    mutating func next() -> String? {
        guard let argument = arguments.popLast() else { return nil }
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            pendingValue = String(argument[argument.index(after: equals)...])
            return String(argument[..<equals])
        }
        pendingValue = nil
        return argument
    }

    /// A usage error for this command.
    func error(_ message: String) -> UsageError {
        UsageError(message, command: command)
    }

    /// The error for an argument this command does not take: an unknown option or a stray word.
    func unexpected(_ argument: String) -> UsageError {
        let what = argument.hasPrefix("-") ? "unknown option" : "unexpected argument"
        return error("\(what) '\(argument)'" + (command.map { " for '\($0.rawValue)'" } ?? ""))
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
            throw error("\(option) must be a positive integer, got '\(text)'")
        }
        guard value <= max else { throw error("\(option) must be at most \(max), got \(value)") }
        return value
    }

    /// An integer in `range`, e.g. `--threads`.
    mutating func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let text = try value(for: option)
        guard let value = Int(text), range.contains(value) else {
            throw error("\(option) must be an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// A seed, decimal or `0x` hex.
    mutating func seed(_ option: String) throws(UsageError) -> UInt64 {
        let text = try value(for: option)
        let value = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let value else {
            throw error("\(option) must be a non-negative integer (decimal or 0x hex), got '\(text)'")
        }
        return value
    }

    /// `on` or `off`.
    mutating func onOff(_ option: String) throws(UsageError) -> Bool {
        let text = try value(for: option)
        switch text {
        case "on": return true
        case "off": return false
        default: throw error("\(option) must be 'on' or 'off', got '\(text)'")
        }
    }

    /// A positive, finite number of seconds.
    mutating func seconds(_ option: String) throws(UsageError) -> Double {
        let text = try value(for: option)
        guard let value = Double(text), value.isFinite, value > 0 else {
            throw error("\(option) must be a positive number of seconds, got '\(text)'")
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
            throw error("\(option) must be \(list), got '\(text)'")
        }
        return choice
    }

    /// A schedule's replay string, as a report prints it.
    mutating func schedule(_ option: String) throws(UsageError) -> Schedule {
        let text = try value(for: option)
        guard let schedule = Schedule(replayString: text) else {
            throw error("\(option) needs a replay string like '2:0.1.0.1', got '\(text)'")
        }
        return schedule
    }
}

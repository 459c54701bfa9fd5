import RaceLab

/// One option of a command: how help shows it, and how `OptionReader` reads its value into the
/// command's request. An option is declared once, with its help and the request's property it
/// sets; the help prints the default that property holds in the command's default request, so a
/// default is never typed twice.
struct CommandOption<Request: Sendable>: Sendable {
    /// The option as typed: `--trials`.
    let name: String
    /// How help shows it, given the command's default request; nil for an option that help does
    /// not list (one a command refuses with a reason, say).
    let help: @Sendable (Request) -> OptionHelp?
    /// Reads the option's value, if it takes one, into the request.
    let read: @Sendable (inout OptionReader, inout Request) throws(UsageError) -> Void

    /// An option that `value` reads into `path`; `help` gives its help lines from the default the
    /// command's request holds there.
    init<Value: Sendable>(
        _ name: String,
        _ value: OptionValue<Value>,
        _ path: WritableKeyPath<Request, Value> & Sendable,
        help: @escaping @Sendable (_ default: Value) -> [String]
    ) {
        self.name = name
        self.help = { defaults in OptionHelp(name, value, help(defaults[keyPath: path])) }
        read = { reader, request throws(UsageError) in request[keyPath: path] = try value.read(&reader, name) }
    }

    /// The same for an optional property: nil until the option is given.
    init<Value: Sendable>(
        _ name: String,
        _ value: OptionValue<Value>,
        _ path: WritableKeyPath<Request, Value?> & Sendable,
        help: @escaping @Sendable (_ default: Value?) -> [String]
    ) {
        self.init(name, value.map { $0 as Value? }, path, help: help)
    }

    /// An option whose help names no default.
    init<Value: Sendable>(
        _ name: String,
        _ value: OptionValue<Value>,
        _ path: WritableKeyPath<Request, Value?> & Sendable,
        _ lines: String...
    ) {
        self.init(name, value, path, help: { _ in lines })
    }

    /// An option whose help names no default.
    init<Value: Sendable>(
        _ name: String,
        _ value: OptionValue<Value>,
        _ path: WritableKeyPath<Request, Value> & Sendable,
        _ lines: String...
    ) {
        self.init(name, value, path, help: { _ in lines })
    }

    private init(
        name: String,
        help: @escaping @Sendable (Request) -> OptionHelp?,
        read: @escaping @Sendable (inout OptionReader, inout Request) throws(UsageError) -> Void
    ) {
        self.name = name
        self.help = help
        self.read = read
    }

    /// An option the command refuses with `reason` rather than as unknown: another command takes
    /// it, and this one has a reason not to. Help does not list it.
    static func refused(_ name: String, because reason: String) -> Self {
        Self(name: name, help: { _ in nil }, read: { reader, _ throws(UsageError) in throw reader.error(reason) })
    }
}

/// How an option's value is written in help and read from the command line: its placeholder and
/// the `OptionReader` check that reads it.
struct OptionValue<Value: Sendable>: Sendable {
    /// `T` in `--trials T`; nil for a flag, which takes no value.
    let placeholder: String?
    /// The value in the usage line, where it may spell out its choices (`dfs|pct|random`).
    let usage: String?
    /// Reads the value of the option named by the second argument.
    let read: @Sendable (inout OptionReader, String) throws(UsageError) -> Value

    init(
        _ placeholder: String?,
        usage: String? = nil,
        read: @escaping @Sendable (inout OptionReader, String) throws(UsageError) -> Value
    ) {
        self.placeholder = placeholder
        self.usage = usage ?? placeholder
        self.read = read
    }

    /// The same value, read as `transform` makes it.
    func map<Other: Sendable>(_ transform: @escaping @Sendable (Value) -> Other) -> OptionValue<Other> {
        OptionValue<Other>(placeholder, usage: usage) { reader, option throws(UsageError) in
            transform(try read(&reader, option))
        }
    }
}

extension OptionValue where Value == Bool {
    /// An option that takes no value: given, it sets true.
    static var flag: Self {
        Self(nil) { reader, option throws(UsageError) in
            try reader.flag(option)
            return true
        }
    }

    /// `on` or `off`; help shows `placeholder`, the usage line `on|off`.
    static func onOff(_ placeholder: String = "on|off") -> Self {
        Self(placeholder, usage: "on|off") { reader, option throws(UsageError) in try reader.onOff(option) }
    }
}

extension OptionValue where Value == Int {
    /// A count from 1 to `max`.
    static func positive(_ placeholder: String, max: Int) -> Self {
        Self(placeholder) { reader, option throws(UsageError) in try reader.positiveInteger(option, max: max) }
    }

    /// An integer in `range`.
    static func integer(_ placeholder: String, in range: ClosedRange<Int>) -> Self {
        Self(placeholder) { reader, option throws(UsageError) in try reader.integer(option, in: range) }
    }
}

extension OptionValue where Value == Double {
    /// A number of seconds in `OptionReader.secondsRange`.
    static func seconds(_ placeholder: String = "S") -> Self {
        Self(placeholder) { reader, option throws(UsageError) in try reader.seconds(option) }
    }
}

extension OptionValue where Value == UInt64 {
    /// A seed, decimal or `0x` hex.
    static var seed: Self {
        Self("S") { reader, option throws(UsageError) in try reader.seed(option) }
    }
}

extension OptionValue where Value == String {
    /// Any text: a name, a path read later.
    static func text(_ placeholder: String) -> Self {
        Self(placeholder) { reader, option throws(UsageError) in try reader.value(for: option) }
    }

    /// A path to write a file to, checked before anything runs.
    static var outputFile: Self {
        Self("FILE") { reader, option throws(UsageError) in try reader.outputFile(option) }
    }
}

extension OptionValue where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of `Value`'s cases, by raw value; the usage line lists them all (`dfs|pct|random`).
    static func choice(_ placeholder: String) -> Self {
        Self(placeholder, usage: Value.allCases.map(\.rawValue).joined(separator: "|")) {
            reader,
            option throws(UsageError) in
            try reader.choice(option, of: Value.self)
        }
    }
}

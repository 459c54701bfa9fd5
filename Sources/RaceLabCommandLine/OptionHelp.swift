import RaceLab

/// One option as help shows it: in a command's usage line and in its OPTIONS section (and an
/// argument, in ARGUMENTS). A command's `CommandOption`s make these from their declarations.
struct OptionHelp {
    /// The option and its value's placeholder in the OPTIONS section, e.g. `--trials T`.
    let name: String
    /// The same in the usage line, where it may spell out its values: `--strategy dfs|pct|random`.
    let usage: String
    /// The help, one string per line; lines are broken by hand to stay within 90 columns.
    let lines: [String]

    init(_ name: String, usage: String? = nil, lines: [String]) {
        self.name = name
        self.usage = usage ?? name
        self.lines = lines
    }

    init(_ name: String, usage: String? = nil, _ lines: String...) {
        self.init(name, usage: usage, lines: lines)
    }

    /// The option `name` taking `value`: `--trials T` here, `--strategy dfs|pct|random` in the usage line.
    init<Value>(_ name: String, _ value: OptionValue<Value>, _ lines: [String]) {
        self.init(
            [name, value.placeholder].compactMap { $0 }.joined(separator: " "),
            usage: [name, value.usage].compactMap { $0 }.joined(separator: " "),
            lines: lines
        )
    }

    /// The option as typed, its long name: `--help` for `-h, --help`.
    var flag: String {
        name.split(separator: " ").last { $0.hasPrefix("-") }.map { String($0.filter { $0 != "," }) } ?? name
    }

    /// The option's lines in an OPTIONS section: the name in a column of its own, the help
    /// beside it (below it, when the name is too long for the column).
    var section: String {
        let column = 19
        let indent = String(repeating: " ", count: column + 4)
        var text = lines.enumerated().map { index, line in index == 0 ? line : indent + line }
        if name.count > column {
            text.insert("  " + name, at: 0)
            text[1] = indent + text[1]
        } else {
            text[0] = "  " + name.padding(toLength: column, withPad: " ", startingAt: 0) + "  " + text[0]
        }
        return text.joined(separator: "\n")
    }
}

extension OptionHelp {
    static let help = OptionHelp("-h, --help", "Show this help.")
}

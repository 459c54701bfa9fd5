import RaceLab

/// The help a RaceLab tool prints, for the tool and for each command, derived from
/// `CommandDescriptor.all`: the COMMANDS list, each usage line and each command's ARGUMENTS and
/// OPTIONS sections come from the descriptors, so that a command and its options are described
/// once.
struct HelpText {
    let tool: String

    /// The tool's own options, before any command.
    static let toolOptions = [OptionHelp("-h, --help", "Show help."), OptionHelp("--version", "Show the version.")]

    func overview() -> String {
        let commands = CommandDescriptor.visible.map { command in
            OptionHelp(
                [command.name, command.argument?.overview].compactMap { $0 }.joined(separator: " "),
                command.summary
            ).section
        }
        return """
            \(tool): run concurrency lessons and measure their bugs.

            Each lesson pairs buggy implementations of a real concurrency pattern with fixed ones. The
            runner executes every variant under DispatchQueue.concurrentPerform, each in its own process,
            and reports lost writes, duplicates and inconsistencies in numbers.

            USAGE: \(tool) <command> [options]

            COMMANDS:
            \(commands.joined(separator: "\n"))

            OPTIONS:
            \(Self.toolOptions.map(\.section).joined(separator: "\n"))

            EXIT STATUS: 0 every buggy variant reproduced and every fixed variant clean;
                         1 some variant did not; 2 bad usage (nothing ran); 3 an error (a failed
                         setup or system call, a file not written) kept a variant from a verdict;
                         130 or 143 interrupted by SIGINT (Ctrl-C) or SIGTERM. Each command's
                         help says which of these it uses.

            Run '\(tool) help run' for the options of a run.
            """
    }

    /// The usage line of `command`, or the tool's.
    func usage(_ command: CommandDescriptor?) -> String {
        guard let command else {
            let names = CommandDescriptor.visible.map(\.name)
            let listed = names.enumerated().map { $0.element + ($0.offset == names.count - 1 ? ")" : ",") }
            return Self.wrapped(
                "usage: \(tool) ",
                ["<command>", "[options]", "  (commands:"] + listed,
                width: Self.usageWidth
            )
        }
        let words = [command.argument?.usage].compactMap { $0 } + command.options.map { "[\($0.usage)]" }
        return Self.wrapped("usage: \(tool) \(command.name) ", words, width: Self.usageWidth)
    }

    /// The widest usage line.
    static let usageWidth = 100

    /// `head` then `words` joined by spaces, in lines of at most `width` columns (a word wider than
    /// that stands alone); each line after the first is indented to where the first word starts,
    /// under the command's arguments as a manual page sets them.
    static func wrapped(_ head: String, _ words: [String], width: Int) -> String {
        let indent = String(repeating: " ", count: head.count)
        var lines: [String] = []
        var line = head
        for word in words {
            let fresh = line.count == indent.count
            if !fresh && line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count == indent.count ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// `command`'s help: what it does, its usage line, its discussion, ARGUMENTS, OPTIONS (then
    /// `-h, --help`), and what it prints and exits with.
    func help(_ command: CommandDescriptor) -> String {
        var paragraphs = ["\(tool) \(command.name): \(command.abstract)", usage(command)]
        if let discussion = command.discussion { paragraphs.append(discussion) }
        if let argument = command.argument { paragraphs.append("ARGUMENTS:\n" + argument.section) }
        if !command.options.isEmpty {
            paragraphs.append((["OPTIONS:"] + (command.options + [.help]).map(\.section)).joined(separator: "\n"))
        }
        paragraphs.append(command.epilogue)
        return paragraphs.joined(separator: "\n\n")
    }
}

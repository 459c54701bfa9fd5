import RaceLab

/// Turns the tool's arguments into a `ParsedCommand`, so that bad input is refused with one clear
/// line before anything runs: the tool's own options (`--help`, `--version`) here, a command's
/// arguments by the command in `CommandDescriptor.all` that its name picks.
struct ArgumentParser {
    let lessons: [Lesson]

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedCommand {
        guard let first = arguments.first else { return .help(nil) }
        switch first {
        case "-h", "--help": return .help(nil)
        case "--version": return .version
        default: break
        }
        if let command = CommandDescriptor.named(first) {
            return try command.parse(Array(arguments.dropFirst()), lessons: lessons)
        }
        if first.hasPrefix("-") {
            throw UsageError(
                "unknown option \(quoted(first))"
                    + Suggestion.clause(for: first, among: HelpText.toolOptions.map(\.flag))
            )
        }
        throw UsageError(
            "unknown command \(quoted(first))"
                + Suggestion.clause(for: first, among: CommandDescriptor.visible.map(\.name))
        )
    }
}

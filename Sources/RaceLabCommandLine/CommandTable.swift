import RaceLab

extension CommandDescriptor {
    /// The tool's commands, in the order help lists them; the hidden ones last.
    static let all: [CommandDescriptor] = [
        ListRequest.descriptor, RunRequest.descriptor, PowerRequest.descriptor, MatrixRequest.descriptor,
        ExploreRequest.descriptor, MergeRequest.descriptor, PlayRequest.descriptor, help, ChildRequest.descriptor,
        WorkerRequest.descriptor,
    ]

    /// The commands help lists and "did you mean" suggests.
    static var visible: [CommandDescriptor] {
        all.filter { !$0.isHidden }
    }

    /// The command named `name`, hidden or not.
    static func named(_ name: String) -> CommandDescriptor? {
        all.first { $0.name == name }
    }

    /// `help [command]`: the tool's help, or a command's.
    static let help = CommandDescriptor(
        "help",
        summary: "Show this help, or a command's.",
        abstract: "show help for the tool or one command.",
        argument: .command,
        epilogue: "Exit status: 0; 2 for a command that does not exist."
    ) { _, arguments, _ throws(UsageError) in
        guard let topic = arguments.first else { return .help(nil) }
        guard arguments.count == 1, let command = named(topic), !command.isHidden else {
            let commands = visible.map(\.name)
            throw UsageError(
                "no help for \(quoted(arguments.joined(separator: " "))); commands are: "
                    + commands.joined(separator: ", ")
                    + (arguments.count == 1 ? Suggestion.clause(for: topic, among: commands) : "")
            )
        }
        return .help(command)
    }
}

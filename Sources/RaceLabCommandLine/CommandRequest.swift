import RaceLab

/// What a command reads from its command line and then runs: the command's options as values,
/// checked before anything runs. The shape of swift-argument-parser's `ParsableCommand`, parsed by
/// hand: a request type names its `descriptor` (the command's name, help, options and checks) and
/// says what it runs; `CommandDescriptor.all` lists the commands.
protocol CommandRequest: Equatable, Sendable {
    /// The command that reads this request: its name, help, options and checks.
    static var descriptor: CommandDescriptor { get }

    /// Runs the request in `tool`, printing to stdout and stderr.
    func run(in tool: RaceLabTool) -> ExitCode
}

extension CommandRequest {
    /// Whether `other` is a request of the same type, equal to this one.
    func isEqual(to other: any CommandRequest) -> Bool {
        (other as? Self) == self
    }
}

/// A command line after parsing and validation: everything in it is known to be runnable.
enum ParsedCommand: Equatable {
    /// The tool's help (nil) or a command's.
    case help(CommandDescriptor?)
    case version
    /// A command's request, ready to run.
    case request(any CommandRequest)

    /// The command whose request this is; nil for help and the version.
    var descriptor: CommandDescriptor? {
        guard case .request(let request) = self else { return nil }
        return type(of: request).descriptor
    }

    static func == (lhs: ParsedCommand, rhs: ParsedCommand) -> Bool {
        switch (lhs, rhs) {
        case (.help(let left), .help(let right)): left == right
        case (.version, .version): true
        case (.request(let left), .request(let right)): left.isEqual(to: right)
        default: false
        }
    }
}

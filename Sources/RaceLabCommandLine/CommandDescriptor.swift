import RaceLab

/// One command of the tool, as `CommandDescriptor.all` lists it: its name, what help says about it,
/// the options it reads and how, and the checks its request must pass. Dispatch, usage lines,
/// `--help`, "did you mean" and usage errors are all derived from these; a command adds one
/// descriptor (with its request type) and the function that runs it.
struct CommandDescriptor: Sendable {
    /// The command as typed: `explore`.
    let name: String
    /// Its line in the tool's COMMANDS list.
    let summary: String
    /// What it does, after `<tool> <name>: ` at the top of its help.
    let abstract: String
    /// Its positional argument, if it takes one.
    let argument: CommandArgument?
    /// The paragraphs of its help between the usage line and ARGUMENTS.
    let discussion: String?
    /// The options it takes, as help lists them (`-h, --help` aside), with the defaults of its request.
    let options: [OptionHelp]
    /// The paragraph of its help after OPTIONS: what it prints and its exit statuses.
    let epilogue: String
    /// Whether help, usage lines and "did you mean" leave it out (the child-process protocol).
    let isHidden: Bool
    /// Whether its variants run in child processes that keep files in the temporary directory:
    /// `TMPDIR` is checked, and folders left by killed runs swept, before it runs.
    let keepsScratchFiles: Bool
    private let reader: @Sendable (CommandDescriptor, [String], [Lesson]) throws(UsageError) -> ParsedCommand

    /// Reads `arguments` (those after the command's name) into a request ready to run, or help.
    func parse(_ arguments: [String], lessons: [Lesson]) throws(UsageError) -> ParsedCommand {
        try reader(self, arguments, lessons)
    }

    /// The options it accepts, as typed (`--trials`, `--help`): what a mistyped option is compared with.
    var optionNames: [String] {
        (options + [.help]).map(\.flag)
    }

    /// A command read by `parse`, which is given the descriptor itself.
    init(
        _ name: String,
        summary: String = "",
        abstract: String = "",
        argument: CommandArgument? = nil,
        discussion: String? = nil,
        options: [OptionHelp] = [],
        epilogue: String = "",
        isHidden: Bool = false,
        keepsScratchFiles: Bool = false,
        parse: @escaping @Sendable (CommandDescriptor, [String], [Lesson]) throws(UsageError) -> ParsedCommand
    ) {
        self.name = name
        self.summary = summary
        self.abstract = abstract
        self.argument = argument
        self.discussion = discussion
        self.options = options
        self.epilogue = epilogue
        self.isHidden = isHidden
        self.keepsScratchFiles = keepsScratchFiles
        reader = parse
    }

    /// A command that reads its options into a `Request`, starting from `defaults` (whose values
    /// its help prints as the defaults), takes at most one lesson as its argument, and then checks
    /// the request with `validate`, which may complete it (the lessons to run, say).
    ///
    /// Each option is read by its `CommandOption`; `-h`/`--help` anywhere asks for the command's
    /// help; any other word starting with `-` is an unknown option, with the nearest known one
    /// suggested.
    init<Request: CommandRequest>(
        _ name: String,
        summary: String,
        abstract: String,
        argument: CommandArgument? = nil,
        discussion: String? = nil,
        epilogue: String,
        keepsScratchFiles: Bool = false,
        defaults: Request,
        options: [CommandOption<Request>],
        validate: @escaping @Sendable (inout Request, CommandValidation) throws(UsageError) -> Void = { _, _ in }
    ) {
        self.init(
            name,
            summary: summary,
            abstract: abstract,
            argument: argument,
            discussion: discussion,
            options: options.compactMap { $0.help(defaults) },
            epilogue: epilogue,
            keepsScratchFiles: keepsScratchFiles
        ) { command, arguments, lessons throws(UsageError) in
            var request = defaults
            var given: [String] = []
            var reader = OptionReader(arguments, command: command)
            while let word = try reader.next() {
                if word == "-h" || word == "--help" { return .help(command) }
                if let option = options.first(where: { $0.name == word }) {
                    try option.read(&reader, &request)
                    continue
                }
                guard let argument = command.argument, !(word.hasPrefix("-") && word.count > 1) else {
                    throw reader.unexpected(word)
                }
                if let first = given.first, !argument.isRepeatable {
                    throw reader.error(
                        "one \(argument.name) at a time (got \(quoted(first)) and \(quoted(word)))"
                            + (argument.acceptsAll ? "; use 'all' for every \(argument.name)" : "")
                    )
                }
                given.append(word)
            }
            if let argument = command.argument, given.isEmpty, !argument.isOptional {
                throw reader.error(argument.missing)
            }
            try validate(&request, CommandValidation(reader: reader, lessons: lessons, arguments: given))
            return .request(request)
        }
    }
}

/// Commands are told apart, and shown in test names, by their names.
extension CommandDescriptor: Equatable, CustomStringConvertible {
    static func == (lhs: CommandDescriptor, rhs: CommandDescriptor) -> Bool {
        lhs.name == rhs.name
    }

    var description: String { name }
}

/// A command's positional argument: a lesson, or for `help` a command.
struct CommandArgument: Sendable {
    /// What it names, as in `<lesson>`.
    let name: String
    /// Whether it may be 'all'.
    let acceptsAll: Bool
    /// Whether it may be left out (`matrix`: every lesson).
    let isOptional: Bool
    /// The error when it is missing and may not be.
    let missing: String
    /// Its help in the ARGUMENTS section, one string per line.
    let lines: [String]
    /// Whether it may be given more than once (`merge`'s files).
    var isRepeatable = false

    /// A lesson, named by number or slug.
    static func lesson(all: Bool, optional: Bool = false, _ lines: String...) -> CommandArgument {
        CommandArgument(
            name: "lesson",
            acceptsAll: all,
            isOptional: optional,
            missing: "which lesson? give a number" + (all ? ", a slug or 'all'" : " or a slug"),
            lines: lines
        )
    }

    /// A lesson or 'all', as `run` and `power` take it.
    static let lessonOrAll = lesson(all: true, "A lesson number (1), its slug (subscript-race), or 'all'.")

    /// A command's name, as `help` takes it: optional, for the tool's help.
    static let command = CommandArgument(
        name: "command",
        acceptsAll: false,
        isOptional: true,
        missing: "which command?",
        lines: ["A command's name (default: the tool's help)."]
    )

    /// In the usage line: `<lesson|all>`, `[<lesson|all>]`, `<lesson>`.
    var usage: String {
        let name = "<\(name)\(acceptsAll ? "|all" : "")>"
        return isOptional ? "[\(name)]" : name
    }

    /// After the command's name in the tool's COMMANDS list: `<lesson>`, `[lesson]`.
    var overview: String {
        isOptional ? "[\(name)]" : "<\(name)>"
    }

    /// Its entry in the ARGUMENTS section.
    var section: String {
        OptionHelp("<\(name)>", lines: lines).section
    }
}

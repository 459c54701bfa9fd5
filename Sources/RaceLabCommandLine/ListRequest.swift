import RaceLab

/// What `list` was asked to do.
struct ListRequest: Equatable {
    var json = false
}

extension ListRequest: CommandRequest {
    static let descriptor = CommandDescriptor(
        "list",
        summary: "List the lessons and their variants.",
        abstract: "list the lessons and their variants.",
        epilogue: """
            Exit status: 0 when the list was printed; 3 when the JSON document could not be
            written; 2 for bad usage.
            """,
        defaults: ListRequest(),
        options: [.json(\.json, replacing: "the table")]
    )

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.list(json: json)
    }
}

import RaceLab

/// What `merge` was asked to do: the report of one exploration from the result files of its shards.
struct MergeRequest: Equatable {
    /// The result files `explore --shard I/N --output FILE` wrote, one per shard, in any order.
    var files: [String] = []
    var json = false
    /// Also print the time per schedule and the distinct traces, as `explore --verbose` does.
    var verbose = false
}

extension MergeRequest: CommandRequest {
    static let options: [CommandOption<MergeRequest>] = [
        CommandOption(
            "--verbose",
            .flag,
            \.verbose,
            "Also print the time per schedule and how many distinct traces",
            "(schedules up to the order of independent steps) were covered."
        ),
        .json(\.json, replacing: "text"),
    ]

    static let descriptor = CommandDescriptor(
        "merge",
        summary: "Report one exploration from the result files of its shards.",
        abstract: "report one exploration from the result files of its shards.",
        argument: CommandArgument(
            name: "file...",
            acceptsAll: false,
            isOptional: false,
            missing: "which result files? give the files of shards 1...N",
            lines: ["The result files of 'explore --shard I/N --output FILE', one", "per shard, in any order."],
            isRepeatable: true
        ),
        discussion: """
            Reads the results of shards 1...N of one variant's search (explore --shard I/N) and
            prints the report that explore prints for the whole search: the same schedule counts,
            verdict and first failing schedule, which is replayed here. Its time is the sum of the
            shards' wall times, and it has no time to the first failure (each shard had its own
            clock). The files are refused, and nothing is reported, when a shard is missing or
            given twice, when they are of other variants, programs, options or shard counts, or
            when one is unreadable, not a shard result, or of another result version.
            """,
        epilogue: """
            Exit status: as explore's for the variant: 0 when a buggy variant has a failing schedule
            or a fixed one is CLEAN; 1 when it got the other verdict; 3 when it got none (ERROR,
            INCONCLUSIVE, CLEAN, NOT EXHAUSTIVE, NOT INTERLEAVED) or could not be set up; 2 for bad
            usage and for result files refused.
            """,
        defaults: MergeRequest(),
        options: options
    ) { request, check throws(UsageError) in
        request.files = check.arguments
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.merge(self)
    }
}

/// The file `explore --shard` writes: which variant the shard explored, and its result.
struct ShardFile: Codable {
    /// The version of this file's layout; bumped when a field changes meaning or disappears.
    static let schemaVersion = 1

    var tool: String
    var schemaVersion = ShardFile.schemaVersion
    var command = "explore --shard"
    var lesson: Int
    var slug: String
    var variant: String
    var result: ShardResult
}

import RaceLab

/// A command line that cannot be run, with the one line that says why.
struct UsageError: Error, Equatable {
    /// The problem, in one line, e.g. `--trials must be a positive integer, got 'ten'`.
    var message: String
    /// The command whose usage to show under the message (`nil`: the tool's).
    var command: CommandDescriptor?

    init(_ message: String, command: CommandDescriptor? = nil) {
        self.message = message
        self.command = command
    }
}

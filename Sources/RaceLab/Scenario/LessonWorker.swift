/// An entry point a lesson runs in a process of its own.
///
/// Some bugs live between processes, not threads: a lock that excludes other processes but not other
/// threads, or a file another process finds half written. A lesson shows those with workers. The tool
/// runs a worker when started with the hidden `_worker` command and a `WorkerRequest`, and
/// `WorkerProcess.launch` starts such a process from lesson code. The worker process exits 0 when `main` returns, 1 when it throws (its
/// error on stderr), 2 when the lesson or worker is unknown.
///
/// ```swift
/// LessonWorker(name: "increment", summary: "increments a shared counter file") { arguments in
///     try Increments(arguments).run()
/// }
/// ```
public struct LessonWorker: Sendable {
    /// The name on the hidden command line: lowercase words joined by dashes.
    public let name: String
    /// One line on what the worker does.
    public let summary: String
    /// The worker's body; gets the arguments given to `WorkerProcess.launch`.
    public let main: @Sendable (_ arguments: [String]) throws -> Void

    /// A worker.
    /// - Parameters:
    ///   - name: its name on the hidden command line.
    ///   - summary: one line on what it does.
    ///   - main: its body, given the arguments passed to `WorkerProcess.launch`.
    public init(name: String, summary: String, main: @escaping @Sendable (_ arguments: [String]) throws -> Void) {
        self.name = name
        self.summary = summary
        self.main = main
    }
}

import Foundation

/// What `WorkerProcess.launch` asks a worker process to run: one `Codable` value written as the
/// process's only argument after `command` and read back by `init(commandLine:)`, as `ChildRequest`
/// is for a variant's child.
package struct WorkerRequest: Codable, Equatable, Sendable {
    /// The hidden command that runs a worker.
    package static let command = "_worker"

    /// The lesson's number.
    package var lesson: Int
    /// The `LessonWorker`'s name.
    package var worker: String
    /// The process whose death ends the worker (within about 50 ms); 0 for none.
    package var parent: Int32
    /// The worker's own arguments, passed to its `main` unread.
    package var arguments: [String]

    package init(lesson: Int, worker: String, parent: Int32, arguments: [String]) {
        self.lesson = lesson
        self.worker = worker
        self.parent = parent
        self.arguments = arguments
    }

    /// The worker's arguments after its executable: the command, then the request as one JSON text.
    package func commandLine() throws -> [String] {
        [Self.command, try JSONText.encode(self, pretty: false)]
    }

    /// Reads a request from the arguments that follow `command`.
    ///
    /// - Throws: `ChildRequest.Malformed` unless they are exactly one request as `commandLine()`
    ///   writes it.
    package init(commandLine arguments: [String]) throws(ChildRequest.Malformed) {
        guard arguments.count == 1,
            let request = try? JSONDecoder().decode(Self.self, from: Data(arguments[0].utf8)),
            request.parent >= 0
        else { throw ChildRequest.Malformed() }
        self = request
    }
}

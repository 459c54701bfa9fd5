import Foundation

/// What `WorkerProcess.launch` asks a worker process to run, written as the process's only argument
/// (see `HiddenCommandRequest`).
package struct WorkerRequest: HiddenCommandRequest, Equatable, Sendable {
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

    /// A worker has a parent, or none (0).
    package var isWellFormed: Bool { parent >= 0 }
}

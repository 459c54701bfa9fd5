/// One step of a controlled execution: a logical thread resumed at a scheduling point and ran to
/// its next one (or to its end).
///
/// The step is named after the operation the thread was about to perform when it was paused
/// (`get contents`, `set contents`, `lock first`), which is the operation it performs first when
/// resumed. That is what a timeline column should say.
public struct ScheduleStep: Equatable, Sendable, Codable {
    /// The logical thread that ran the step.
    public let thread: Int
    /// The operation the thread was paused in front of, e.g. `set contents`.
    public let operation: String
}

/// A logical thread that a running one started: a callback it handed to a queue, a task it created.
public struct SpawnedThread: Equatable, Sendable, Codable, CustomStringConvertible {
    /// Its id; the program's own threads come first, so this is at least their count.
    public let thread: Int
    /// The thread that started it.
    public let parent: Int
    /// What it is, as the code that started it named it (`fetch callback`, `load task`).
    public let name: String

    /// A started thread.
    /// - Parameters:
    ///   - thread: its id.
    ///   - parent: the thread that started it.
    ///   - name: what the starting code named it.
    public init(thread: Int, parent: Int, name: String) {
        self.thread = thread
        self.parent = parent
        self.name = name
    }

    public var description: String { TimelineText.legend(self) }
}

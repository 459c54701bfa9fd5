/// One step of a controlled execution: a logical thread resumed at a scheduling point and ran to
/// its next one (or to its end).
///
/// The step is named after the operation the thread was about to perform when it was paused
/// (`get contents`, `set contents`, `lock first`), which is the operation it performs first when
/// resumed. That is what a timeline column should say.
public struct ScheduleStep: Equatable, Sendable, Codable {
    public let thread: Int
    public let operation: String
}

/// What a logical thread is paused in front of.
enum PendingOperation: Equatable {
    /// A race window or a synchronization step: always able to go on.
    case point(String)
    /// Taking `lock`: able to go on only while no other thread holds it.
    case acquire(ObjectIdentifier, name: String)
    /// Waiting for logical thread `thread` to finish (`await task.value`): able to go on once it has.
    case join(Int, name: String)
    /// Starting work item `item` of a `RaceQueue` (an `async` item): able to go on once the queue
    /// would start it.
    case queueItem(ObjectIdentifier, item: Int, name: String)
    /// Calling `sync` on a `RaceQueue`: able to go on once the queue would start an item submitted
    /// now; the item is submitted and started in the same step.
    case queueSync(ObjectIdentifier, serial: Bool, barrier: Bool, name: String)

    var name: String {
        switch self {
        case .point(let name): name
        case .acquire(_, let name): "lock \(name)"
        case .join(_, let name): name
        case .queueItem(_, _, let name): name
        case .queueSync(_, _, _, let name): name
        }
    }
}

/// A logical thread that a running one started: a callback it handed to a queue, a task it created.
public struct SpawnedThread: Equatable, Sendable, Codable, CustomStringConvertible {
    /// Its id; the program's own threads come first, so this is at least their count.
    public let thread: Int
    /// The thread that started it.
    public let parent: Int
    /// What it is, as the code that started it named it (`fetch callback`, `load task`).
    public let name: String

    public init(thread: Int, parent: Int, name: String) {
        self.thread = thread
        self.parent = parent
        self.name = name
    }

    public var description: String { "thread \(thread) is '\(name)', started by thread \(parent)" }
}

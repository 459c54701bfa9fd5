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

    var name: String {
        switch self {
        case .point(let name): name
        case .acquire(_, let name): "lock \(name)"
        }
    }
}

import Foundation

/// What the UI read during one render, in order (`header v0`, `title v0`), for the schedule
/// explorer's state lines. Its lock is held only inside `note` and `described`, never across a
/// scheduling point, so describing the state never waits for a paused thread.
public final class ReadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reads: [String] = []

    public init() {}

    public func note(_ read: String) {
        lock.lock()
        defer { lock.unlock() }
        reads.append(read)
    }

    /// The reads so far, in order.
    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return reads
    }

    /// The reads so far, comma-separated; "nothing yet" before the first.
    public var described: String {
        lock.lock()
        defer { lock.unlock() }
        return reads.isEmpty ? "nothing yet" : reads.joined(separator: ", ")
    }
}

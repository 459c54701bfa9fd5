import Foundation
import RaceLab

/// The article's readers-writer lock made of a concurrent queue: reads are `sync` work items, which
/// may run side by side; writes are asynchronous *barrier* items, which run alone.
///
/// What it guarantees: no read overlaps a write, and a read submitted after a write (from any
/// thread, once `write` has returned) sees that write, because the barrier holds back every item
/// submitted after it. What it does not: anything about *two* calls. A `read` followed by a `write`
/// is two work items, and other writes can run between them (see `Protected`).
public final class ReadWriteLock: @unchecked Sendable {
    /// A `RaceQueue`: a concurrent `DispatchQueue` whose work items the schedule explorer sees.
    private let queue: RaceQueue

    /// - Parameter label: the queue's label, shown in debuggers and crash logs.
    public init(label: String) {
        queue = RaceQueue(label: label, attributes: .concurrent)
    }

    /// Runs `body` as a read: concurrently with other reads, never during a write. Blocks until done.
    public func read<Value>(_ body: () -> Value) -> Value {
        queue.sync(execute: body)
    }

    /// Enqueues `body` as a write and returns at once; `body` runs when every earlier item finished,
    /// and nothing else runs on the queue while it does.
    public func write(_ body: @escaping @Sendable () -> Void) {
        queue.async(flags: .barrier, execute: body)
    }
}

import RaceLab

/// A value that may only be reached through a `ReadWriteLock`: the article's `Protected<Resource>`.
///
/// `read()` returns a copy taken inside a read item; `mutate` runs the whole transformation inside
/// one barrier item, so no other write can come between the value it reads and the value it stores.
/// That is the only way to change the value safely when the new value depends on the old one.
///
/// `write(_:)` is added here to show the trap: it is safe by itself, but `write(read() + 1)` is a
/// read item and a write item, and two threads doing it at once both read the same old value.
/// `Protected` makes each call safe; it cannot make a *sequence* of calls atomic.
public final class Protected<Resource: Sendable>: @unchecked Sendable {
    private let lock: ReadWriteLock
    /// Touched only inside `lock`'s work items.
    private var resource: Resource

    public init(resource: Resource) {
        self.lock = ReadWriteLock(label: "racelab.Protected<\(Resource.self)>")
        self.resource = resource
    }

    /// The current value. Waits for every `mutate` or `write` enqueued before the call, so a thread
    /// always reads its own earlier changes.
    public func read() -> Resource {
        Race.step("read")
        return lock.read { resource }
    }

    /// Replaces the value with `transform(value)`, read and written in one barrier item. Returns at
    /// once; the change happens before any later `read`.
    public func mutate(_ transform: @escaping @Sendable (Resource) -> Resource) {
        Race.step("mutate")
        lock.write { self.resource = transform(self.resource) }
    }

    /// Replaces the value with `newValue`. Safe alone; racy when `newValue` came from an earlier `read()`.
    public func write(_ newValue: Resource) {
        // The explorer's record of whose write this is (nil outside it), taken on the caller's thread.
        let reads = CounterReads.current
        lock.write {
            self.resource = newValue
            reads?.wrote()
        }
    }
}

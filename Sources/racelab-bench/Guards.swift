import Dispatch
import Foundation
import Synchronization

/// One way to guard a shared counter: what the benchmark compares.
///
/// The guarded state is deliberately tiny (one `Int`), so that what is measured is the cost of the
/// guard itself: entering and leaving it, and how it behaves when threads contend.
protocol CounterGuard: AnyObject, Sendable {
    /// Reads the counter.
    func read() -> Int
    /// Adds one to the counter.
    func increment()
    /// Waits until every write issued so far has been applied (for guards that write asynchronously).
    func drain()
}

extension CounterGuard {
    func drain() {}
}

/// The source articles' choice: a concurrent queue, `sync` reads, asynchronous barrier writes.
final class ConcurrentQueueGuard: CounterGuard, @unchecked Sendable {
    private let queue = DispatchQueue(label: "bench.concurrent", attributes: .concurrent)
    private var value = 0
    func read() -> Int { queue.sync { value } }
    func increment() { queue.async(flags: .barrier) { self.value += 1 } }
    func drain() { queue.sync(flags: .barrier) {} }
}

/// A lock that every access of a `Locked` value runs under: readers share it where the lock allows.
protocol BenchLock: Sendable {
    /// Runs `body` holding the lock as a reader.
    func reading<T>(_ body: () -> T) -> T
    /// Runs `body` holding the lock alone.
    func writing<T>(_ body: () -> T) -> T
}

/// `queue.sync` on a serial queue for reads and writes.
struct SerialQueue: BenchLock {
    let queue: DispatchQueue
    func reading<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
    func writing<T>(_ body: () -> T) -> T { queue.sync(execute: body) }
}

/// `NSLock` around each access.
extension NSLock: BenchLock {
    func reading<T>(_ body: () -> T) -> T { writing(body) }
    func writing<T>(_ body: () -> T) -> T {
        lock()
        defer { unlock() }
        return body()
    }
}

/// A value read and written under `Lock`: the guard of both workloads (the counter, the blob) for
/// the serial queue, `NSLock` and the read-write lock, which differ only in how they lock.
final class Locked<Lock: BenchLock, Value>: @unchecked Sendable {
    private let lock: Lock
    private var value: Value

    init(_ lock: Lock, _ initial: Value) {
        self.lock = lock
        value = initial
    }

    func reading<T>(_ body: (Value) -> T) -> T { lock.reading { body(value) } }
    func writing(_ body: (inout Value) -> Void) { lock.writing { body(&value) } }
    /// Writes apply before `writing` returns: nothing to wait for.
    func drain() {}
}

extension Locked: CounterGuard where Value == Int {
    func read() -> Int { reading { $0 } }
    func increment() { writing { $0 += 1 } }
}

/// A `pthread_rwlock_t` in memory of its own (a lock must not move): shared for reads, exclusive for
/// writes.
final class ReadWriteLock: BenchLock, @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        precondition(pthread_rwlock_init(lock, nil) == 0, "pthread_rwlock_init failed")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` holding the lock shared with other readers.
    func reading<T>(_ body: () -> T) -> T {
        precondition(pthread_rwlock_rdlock(lock) == 0, "pthread_rwlock_rdlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }

    /// Runs `body` holding the lock alone.
    func writing<T>(_ body: () -> T) -> T {
        precondition(pthread_rwlock_wrlock(lock) == 0, "pthread_rwlock_wrlock failed")
        defer { pthread_rwlock_unlock(lock) }
        return body()
    }
}

/// `Synchronization.Mutex` (a futex on Linux).
final class MutexGuard: CounterGuard {
    private let mutex = Mutex(0)
    func read() -> Int { mutex.withLock { $0 } }
    func increment() { mutex.withLock { $0 += 1 } }
}

/// `Synchronization.Atomic`: possible here because the operation is a single add or load.
final class AtomicGuard: CounterGuard {
    private let atomic = Atomic(0)
    func read() -> Int { atomic.load(ordering: .acquiring) }
    func increment() { atomic.wrappingAdd(1, ordering: .acquiringAndReleasing) }
}

/// An actor: every access is an `await`, from tasks rather than threads.
actor ActorCounter {
    private var value = 0
    func read() -> Int { value }
    func increment() { value += 1 }
}

/// The strategies, in the order tables and charts show them.
enum Strategy: String, CaseIterable, Sendable {
    case serialQueue = "serial queue sync"
    case concurrentQueue = "concurrent queue + barrier"
    case nsLock = "NSLock"
    case readWriteLock = "pthread_rwlock_t"
    case mutex = "Synchronization.Mutex"
    case actor = "actor"
    case atomic = "Atomic"

    /// A fresh guard, or nil for the actor (which the benchmark drives from tasks).
    func makeGuard() -> (any CounterGuard)? {
        switch self {
        case .serialQueue: Locked(SerialQueue(queue: DispatchQueue(label: "bench.serial")), 0)
        case .concurrentQueue: ConcurrentQueueGuard()
        case .nsLock: Locked(NSLock(), 0)
        case .readWriteLock: Locked(ReadWriteLock(), 0)
        case .mutex: MutexGuard()
        case .atomic: AtomicGuard()
        case .actor: nil
        }
    }
}

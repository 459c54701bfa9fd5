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

/// `queue.sync` on a serial queue for reads and writes.
final class SerialQueueGuard: CounterGuard, @unchecked Sendable {
    private let queue = DispatchQueue(label: "bench.serial")
    private var value = 0
    func read() -> Int { queue.sync { value } }
    func increment() { queue.sync { value += 1 } }
}

/// The source articles' choice: a concurrent queue, `sync` reads, asynchronous barrier writes.
final class ConcurrentQueueGuard: CounterGuard, @unchecked Sendable {
    private let queue = DispatchQueue(label: "bench.concurrent", attributes: .concurrent)
    private var value = 0
    func read() -> Int { queue.sync { value } }
    func increment() { queue.async(flags: .barrier) { self.value += 1 } }
    func drain() { queue.sync(flags: .barrier) {} }
}

/// `NSLock` around each access.
final class NSLockGuard: CounterGuard, @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func read() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
    func increment() {
        lock.lock()
        value += 1
        lock.unlock()
    }
}

/// A `pthread_rwlock_t` in memory of its own (a lock must not move), for the guards of both workloads.
final class ReadWriteLock: @unchecked Sendable {
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

/// A `pthread_rwlock_t`: shared for reads, exclusive for writes.
final class ReadWriteLockGuard: CounterGuard, @unchecked Sendable {
    private let lock = ReadWriteLock()
    private var value = 0

    func read() -> Int { lock.reading { value } }
    func increment() { lock.writing { value += 1 } }
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
        case .serialQueue: SerialQueueGuard()
        case .concurrentQueue: ConcurrentQueueGuard()
        case .nsLock: NSLockGuard()
        case .readWriteLock: ReadWriteLockGuard()
        case .mutex: MutexGuard()
        case .atomic: AtomicGuard()
        case .actor: nil
        }
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A pthread mutex, for code that parks threads on conditions of its own (`ParkingCondition`)
/// under one lock: `NSCondition` ties one condition to one lock, so a wake-up meant for one thread
/// there wakes every thread that waits on that lock.
///
/// Plain pthread, not `Synchronization.Mutex`: ThreadSanitizer intercepts pthread calls and sees
/// the happens-before edges a pthread mutex and condition make, while `Mutex` on Linux gives false
/// reports. Every call is checked (`precondition`); in a debug build the mutex is error-checking,
/// so an unlock by a thread that does not hold it, or a second lock by the one that does, stops the
/// program instead of corrupting it. Both Glibc and Darwin have every call used here.
final class ParkingLock: @unchecked Sendable {
    /// For `ParkingCondition`, which waits on it.
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        precondition(pthread_mutexattr_init(&attributes) == 0, "pthread_mutexattr_init failed")
        defer { pthread_mutexattr_destroy(&attributes) }
        #if DEBUG
        precondition(
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)) == 0,
            "pthread_mutexattr_settype failed"
        )
        #endif
        precondition(pthread_mutex_init(mutex, &attributes) == 0, "pthread_mutex_init failed")
    }

    deinit {
        precondition(pthread_mutex_destroy(mutex) == 0, "pthread_mutex_destroy failed")
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() {
        let error = pthread_mutex_lock(mutex)
        precondition(error == 0, "pthread_mutex_lock failed: \(error)")
    }

    func unlock() {
        let error = pthread_mutex_unlock(mutex)
        precondition(error == 0, "pthread_mutex_unlock failed: \(error)")
    }
}

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
        requirePthreadSuccess(pthread_mutexattr_init(&attributes), "pthread_mutexattr_init")
        defer { pthread_mutexattr_destroy(&attributes) }
        #if DEBUG
        requirePthreadSuccess(
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)),
            "pthread_mutexattr_settype"
        )
        #endif
        requirePthreadSuccess(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
    }

    deinit {
        requirePthreadSuccess(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() {
        requirePthreadSuccess(pthread_mutex_lock(mutex), "pthread_mutex_lock")
    }

    func unlock() {
        requirePthreadSuccess(pthread_mutex_unlock(mutex), "pthread_mutex_unlock")
    }
}

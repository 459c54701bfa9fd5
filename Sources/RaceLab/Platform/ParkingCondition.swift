import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A pthread condition variable waited on with a `ParkingLock`: give each thread (or each kind of
/// waiter) a condition of its own, and a state change wakes only the thread it concerns.
///
/// What a condition guarantees is no more than pthread's: a wait can end with no signal (a spurious
/// wake-up), so every waiter re-checks what it waits for, in a loop, with the lock held; and a signal
/// sent while no one waits is lost, so the state change must be made under the lock before it.
final class ParkingCondition: @unchecked Sendable {
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        requirePthreadSuccess(pthread_cond_init(condition, nil), "pthread_cond_init")
    }

    deinit {
        requirePthreadSuccess(pthread_cond_destroy(condition), "pthread_cond_destroy")
        condition.deinitialize(count: 1)
        condition.deallocate()
    }

    /// Releases `lock` (held by the caller), waits for a wake-up, and takes `lock` again.
    func wait(on lock: ParkingLock) {
        requirePthreadSuccess(pthread_cond_wait(condition, lock.mutex), "pthread_cond_wait")
    }

    /// The same, giving up at `deadline` (wall-clock time, as `NSCondition.wait(until:)`); false
    /// when the deadline passed.
    func wait(on lock: ParkingLock, until deadline: Date) -> Bool {
        let seconds = deadline.timeIntervalSince1970.rounded(.down)
        var limit = timespec()
        limit.tv_sec = Int(seconds)
        limit.tv_nsec = Int((deadline.timeIntervalSince1970 - seconds) * 1e9)
        let error = pthread_cond_timedwait(condition, lock.mutex, &limit)
        requirePthreadSuccess(error, "pthread_cond_timedwait", also: ETIMEDOUT)
        return error == 0
    }

    /// Wakes one thread waiting on this condition, if any.
    func signal() {
        requirePthreadSuccess(pthread_cond_signal(condition), "pthread_cond_signal")
    }

    /// Wakes every thread waiting on this condition.
    func broadcast() {
        requirePthreadSuccess(pthread_cond_broadcast(condition), "pthread_cond_broadcast")
    }
}

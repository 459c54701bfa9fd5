import Foundation

/// The real threads logical threads run on, kept parked between executions: an exploration runs
/// thousands of executions of the same few threads, and a new thread for each (its stack mapped,
/// the kernel's task made, then both torn down) costs more than waking a parked one.
///
/// A thread runs one body at a time, then `last` (the logical thread's end, which gives the baton
/// on); it counts as free again before `last` runs. So once an execution's threads have all
/// ended, the controller has seen every one of them end and the next execution finds them free: it
/// starts no thread as long as it needs no more than the last one did. A body that never returns
/// (a thread left stuck) keeps its thread, and later bodies get other threads. Work given from
/// `last` (the baton handed to a thread not started yet) is run next by the thread that runs
/// `last`, which is free by then, unless other work already waits: no other thread is woken for it.
///
/// What a parked thread keeps from one body to the next: its thread-local storage (a
/// `Thread.current.threadDictionary` entry, a name given with `Thread.current.name`); task-locals
/// bound with `withValue` are unbound when the body returns. Code under exploration that keeps
/// per-thread state would see the state of an earlier execution; none in RaceLab does.
final class ParkedThreads: @unchecked Sendable {
    static let shared = ParkedThreads()

    private struct Work {
        let body: @Sendable () -> Void
        let last: @Sendable () -> Void
    }

    /// One thread of the pool, as its own `serve` loop and `run` called from its `last` see it.
    private final class Worker {
        /// While it runs `last`: the first work given from there, which it runs next itself.
        var claiming = false
        var claimed: Work?
    }

    private let lock = ParkingLock()
    /// Where free threads wait for work: one signal per work item queued.
    private let workArrived = ParkingCondition()
    /// Work not yet taken, oldest first. Guarded by `lock`.
    private var queue: [Work] = []
    /// Free threads not yet promised to a work item in `queue`. Guarded by `lock`.
    private var free = 0
    private var startedCount = 0
    private let stackSize: Int
    /// The calling thread's `Worker`, if it is one of this pool's.
    private var workerKey = pthread_key_t()

    /// - Parameter stackSize: the stack of each thread, in bytes.
    init(stackSize: Int = 1 << 20) {
        self.stackSize = stackSize
        precondition(pthread_key_create(&workerKey, nil) == 0, "pthread_key_create failed")
    }

    deinit {
        pthread_key_delete(workerKey)
    }

    /// Threads started so far: each work item that found no free thread started one.
    var started: Int {
        lock.lock()
        defer { lock.unlock() }
        return startedCount
    }

    /// Runs `body`, then `last`, on a free thread, or on a new one if none is free; returns at once.
    func run(_ body: @escaping @Sendable () -> Void, last: @escaping @Sendable () -> Void) {
        let work = Work(body: body, last: last)
        var worker: Worker?
        if let raw = pthread_getspecific(workerKey) {
            worker = Unmanaged<Worker>.fromOpaque(raw).takeUnretainedValue()
        }
        lock.lock()
        if let worker, worker.claiming, worker.claimed == nil, queue.isEmpty {
            // The calling thread is free once `last` returns, and no queued work waits for it (a
            // body queued meanwhile by another caller, promised to any free thread): it runs `work`.
            free -= 1
            lock.unlock()
            worker.claimed = work
            return
        }
        // Each queued item is owed a thread that will take one: a free one, promised now, or a new one.
        queue.append(work)
        let promised = free > 0
        if promised {
            free -= 1
        } else {
            startedCount += 1
        }
        lock.unlock()
        if promised {
            // After unlocking, so that the thread woken does not wake only to wait for the lock. No
            // wake-up is lost: a thread that has not started waiting yet will find the queue full.
            workArrived.signal()
        } else {
            let thread = Thread { [self] in serve() }
            thread.stackSize = stackSize
            thread.start()
        }
    }

    private func serve() {
        let worker = Worker()
        pthread_setspecific(workerKey, Unmanaged.passUnretained(worker).toOpaque())
        var claimed: Work?
        while true {
            // Released at the end of each turn of the loop, before the thread parks: a parked thread
            // keeps no logical thread (nor its execution) alive.
            let work: Work
            if let next = claimed {
                work = next
                claimed = nil
            } else {
                work = take()
            }
            work.body()
            lock.lock()
            free += 1
            lock.unlock()
            worker.claiming = true
            work.last()
            worker.claiming = false
            claimed = worker.claimed
            worker.claimed = nil
        }
    }

    /// The oldest work item, once there is one.
    private func take() -> Work {
        lock.lock()
        defer { lock.unlock() }
        while queue.isEmpty { workArrived.wait(on: lock) }
        return queue.removeFirst()
    }
}

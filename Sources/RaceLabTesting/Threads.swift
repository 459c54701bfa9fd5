import Foundation
import RaceLab

/// Runs `body` on a thread of its own, outside Swift's cooperative pool, and returns its result.
///
/// Tests run on the cooperative pool, which has one thread per core (two here). Code that blocks
/// its thread (a forced interleaving holding a thread at a window, `queue.sync`, a semaphore) must
/// not hold pool threads, or two such tests in parallel starve the pool and deadlock.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Runs `body(index)` for `0 ..< count` on that many threads of their own, each with `hook` bound
/// as its race-window hook, and returns when all have finished.
public func onThreads(
    _ count: Int,
    hook: (any RaceWindowHook)? = nil,
    _ body: @escaping @Sendable (Int) -> Void
) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                Race.$hook.withValue(hook) { body(index) }
                group.leave()
            }.start()
        }
        group.notify(queue: .global()) { continuation.resume() }
    }
}

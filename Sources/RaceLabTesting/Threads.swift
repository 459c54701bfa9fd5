import Foundation
import RaceLab

/// Runs `body(index)` for `0 ..< count` on that many threads of their own, each with `hook` bound
/// as its race-window hook, and returns when all have finished.
///
/// The threads are outside Swift's cooperative pool (see `onOwnThread`), so bodies may block: hold
/// at a window, wait on a semaphore, `sync` onto a busy queue.
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

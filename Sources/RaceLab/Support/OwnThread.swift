import Foundation

// Two bridges between Swift concurrency and threads that may block, one for each direction.
//
// Swift's cooperative pool has one thread per core. Code that blocks its thread (a forced
// interleaving holding a thread at a race window, a semaphore, `queue.sync` onto a busy queue, the
// explorer's baton) must never hold a pool thread while it waits for work that needs the pool, or
// a few such waits in parallel starve the pool and the process deadlocks.

/// Runs blocking `body` on a new thread of its own, outside the cooperative pool, and returns its
/// result (or rethrows its error) to the awaiting task.
///
/// - Parameters:
///   - stackSize: the new thread's stack size in bytes; nil keeps the platform's default.
///   - body: the blocking work.
public func onOwnThread<Success: Sendable, Failure: Error>(
    stackSize: Int? = nil,
    _ body: @escaping @Sendable () throws(Failure) -> Success
) async throws(Failure) -> Success {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, Failure>, Never>) in
        let thread = Thread { continuation.resume(returning: Result(catching: body)) }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
    return try result.get()
}

/// Runs async `work` in a new task and blocks the calling thread until it has finished; returns its
/// result (or rethrows its error).
///
/// Only for threads outside the cooperative pool (a runner's or explorer's own thread, a thread from
/// `onOwnThread`): blocking a pool thread on work that needs the pool is how a small machine
/// deadlocks.
///
/// - Parameters:
///   - executor: the task's preferred executor, and `true` for `inheritingTaskLocals`: the task is
///     a child-like `Task` that sees the calling thread's task-locals (a `Race.hook` bound there).
///     Without an executor the task is detached: it inherits neither task-locals nor an actor, so it
///     can never wait for the main actor that top-level code might be blocking.
///   - work: the async work to wait for.
public func blockingWait<Success: Sendable, Failure: Error>(
    inheritingTaskLocalsOn executor: (any TaskExecutor)? = nil,
    for work: @escaping @Sendable () async throws(Failure) -> Success
) throws(Failure) -> Success {
    let done = DispatchSemaphore(value: 0)
    let box = LockedValueBox<Result<Success, Failure>?>(nil)
    let body: @Sendable () async -> Void = {
        let result: Result<Success, Failure>
        do throws(Failure) {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        box.withLockedValue { $0 = result }
        done.signal()
    }
    if let executor {
        Task(executorPreference: executor, operation: body)
    } else {
        Task.detached(operation: body)
    }
    done.wait()
    return try box.value!.get()
}

import Synchronization

/// Work that the current thread hands to another thread: a completion callback a library calls on
/// its own queue, the body of a `Task` it creates.
///
/// Race-window hooks are bound per thread (a task-local), and a callback that a queue runs does
/// not inherit them, so without a hand-off the windows it passes would be invisible: no noise
/// there, and no scheduling points for the explorer. Take the hand-off where the work is started
/// and run the work inside it:
///
/// ```swift
/// let callback = Race.handOff("fetch callback")
/// fetcher.fetch(index) { result in
///     callback.run { errors.record(result) }
/// }
/// ```
///
/// Under the stress runner, `run` binds the starting thread's noise hook. Under the schedule
/// explorer, taking the hand-off starts a new logical thread, and `run` is its body: the explorer
/// decides when the callback runs relative to everything else, like any other thread. Call `run`
/// exactly once per hand-off (a hand-off whose `run` never comes is reported as a stuck thread).
///
/// - Note: Exploring, the real thread that calls `run` is held, waiting for the explorer to choose
///   it, and the explorer cannot provide that thread: work the code sends to a `DispatchQueue`
///   needs a free thread of libdispatch's pool. On Linux that pool grows only while fewer of its
///   threads are runnable than there are cores (checked once a second), so on a machine whose
///   other work keeps the pool busy a chosen callback may not start in time and is reported stuck.
///   Work the code under test submits itself is better sent to a `RaceQueue`, whose items the
///   explorer runs on threads of its own.
public struct RaceHandOff: Sendable {
    /// The hook `run` binds: the starting thread's, or, exploring, the new logical thread.
    private let hook: (any RaceWindowHook)?
    /// Under a controlled scheduler: the thread that `run` is the body of.
    let child: (any HandOffThread)?

    /// - Parameter spawning: false keeps the starting thread's hook even under a controlled
    ///   scheduler (a task whose jobs the explorer schedules itself, see `RaceTask`).
    init(name: StaticString, spawning: Bool = true) {
        if spawning, HandOffThreads.mayExist, let starter = Race.hook as? any HandOffThread {
            let child = starter.spawn(name.description)
            self.child = child
            hook = child
        } else {
            child = nil
            hook = Race.hook
        }
    }

    /// Runs the handed-off work with the starting thread's hook (or, exploring, as its own thread).
    public func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        child?.begin()
        defer { child?.end() }
        return try Race.$hook.withValue(hook, operation: body)
    }

    /// `run` for asynchronous work, such as a task's body.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        child?.begin()
        defer { child?.end() }
        return try await Race.$hook.withValue(hook, operation: body)
    }

    /// Exploring: pauses the current logical thread until the handed-off work has finished, as a
    /// scheduling point named `name`. Does nothing otherwise.
    func awaitEnd(_ name: String) {
        guard let child, let waiter = Race.hook as? any HandOffThread else { return }
        waiter.join(child, name: name)
    }
}

extension Race {
    /// A hand-off for work the current thread starts on another thread; see `RaceHandOff`.
    /// `name` says what the work is (`"fetch callback"`); the explorer shows it as the new thread's
    /// first step.
    public static func handOff(_ name: StaticString) -> RaceHandOff {
        RaceHandOff(name: name)
    }
}

/// A race-window hook that is one thread of a controlled execution (the schedule explorer's logical
/// thread), and can start more: what `RaceHandOff` needs of a scheduler, so that the windows layer
/// names no scheduler type.
///
/// A hand-off taken on such a thread starts a new thread of the same execution (`spawn`); `run`
/// brackets the work with `begin` and `end`; waiting for the work is `join`. A hook that is not a
/// `HandOffThread` (noise, a test gate) is simply passed on to the work.
///
/// A conforming type counts its instances in `HandOffThreads.alive`, so that a hand-off taken where
/// none exists (the stress runner) skips the cast of its hook.
protocol HandOffThread: RaceWindowHook {
    /// Starts a new thread of the same execution, whose first step is entering its body (`name`).
    func spawn(_ name: String) -> any HandOffThread
    /// Called on the real thread that runs the spawned thread's body, before it: waits to be chosen.
    func begin()
    /// Called when the spawned thread's body has returned.
    func end()
    /// Pauses this thread until `thread` has ended, as a scheduling point named `name`.
    func join(_ thread: any HandOffThread, name: String)
}

/// How many `HandOffThread`s exist in the process (each counts itself while it lives). Zero means
/// no code runs under a controlled scheduler: one relaxed load then spares a hot path the dynamic
/// cast of the current hook, which costs more than a queue's `async`. A thread's creation happens
/// before it runs, so code that runs as one never reads zero.
enum HandOffThreads {
    static let alive = Atomic<Int>(0)

    static var mayExist: Bool {
        alive.load(ordering: .relaxed) > 0
    }
}

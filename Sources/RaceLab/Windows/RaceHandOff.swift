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
public struct RaceHandOff: Sendable {
    /// The hook `run` binds: the starting thread's, or, exploring, the new logical thread.
    private let hook: (any RaceWindowHook)?
    /// Under the explorer: the logical thread that `run` is the body of.
    let child: LogicalThread?

    init(name: StaticString) {
        if let logical = Race.hook as? LogicalThread {
            child = logical.spawn(name.description)
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
        guard let child, let waiter = Race.hook as? LogicalThread else { return }
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

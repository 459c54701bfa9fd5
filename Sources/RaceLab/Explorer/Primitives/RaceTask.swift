/// A `Task` that the schedule explorer can see.
///
/// Like `RaceLock`, and like the task types of loom and Shuttle: outside exploration it is a plain
/// `Task` whose body keeps the creator's race-window hook. Under the explorer its body is a logical
/// thread of its own (see `RaceHandOff`), and `value` is a scheduling point that waits for that
/// thread to finish. That is what lets the explorer run code in which two callers await one task:
/// waiting on a plain `Task` that is paused at a scheduling point would block the waiter on
/// something the explorer does not know about.
///
/// With marks off (`ExplorationOptions.marks`) the explorer schedules every task's jobs itself, a
/// plain `Task` included, so there a `RaceTask` is a plain `Task`. What it still adds with marks on:
/// a named thread (`load task`) and a named point (`await load task`) in schedules.
///
/// It takes the closures `Task { }` takes: a body that throws or not (`RaceTask<Success, Never>`,
/// `RaceTask<Success, any Error>`), isolated to the actor it is created on (a body written in an
/// actor's method may touch the actor's state without `await`), with a priority.
public struct RaceTask<Success: Sendable, Failure: Error>: Sendable {
    private let task: Task<Success, Failure>
    private let handOff: RaceHandOff
    private let name: StaticString

    /// With marks off the explorer schedules a plain `Task`'s jobs itself: no thread of a hand-off.
    private static func handOff(_ name: StaticString) -> RaceHandOff {
        let schedulesJobs = (Race.hook as? LogicalThread)?.execution.schedulesJobs ?? false
        return RaceHandOff(name: name, spawning: !schedulesJobs)
    }

    private init(name: StaticString, handOff: RaceHandOff, task: Task<Success, Failure>) {
        self.name = name
        self.handOff = handOff
        self.task = task
    }

    /// Exploring: waits (a scheduling point, `await <name>`) until the body's thread has finished.
    private func awaitEnd() {
        handOff.awaitEnd("await \(name)")
    }

    /// Cancels the task, like `Task.cancel()`.
    public func cancel() {
        task.cancel()
    }

    /// Whether the task was cancelled, like `Task.isCancelled`.
    public var isCancelled: Bool { task.isCancelled }
}

extension RaceTask where Failure == Never {
    /// Starts `operation` now, like `Task { }`. `name` (e.g. `"load task"`) names the task's thread
    /// in schedules, and waiting for it is shown as `await <name>`.
    public init(
        _ name: StaticString,
        priority: TaskPriority? = nil,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async -> Success
    ) {
        let handOff = Self.handOff(name)
        let task: Task<Success, Never>
        if handOff.child != nil {
            // On the explorer's own threads: the body blocks a thread while it waits for its turn,
            // which must never be one of the cooperative pool's few.
            task = Task(executorPreference: ExplorerExecutor.shared, priority: priority) {
                await handOff.run { await operation() }
            }
        } else {
            task = Task(priority: priority) { await handOff.run { await operation() } }
        }
        self.init(name: name, handOff: handOff, task: task)
    }

    /// The task's result, waiting for it to finish.
    public var value: Success {
        get async {
            awaitEnd()
            return await task.value
        }
    }
}

extension RaceTask where Failure == any Error {
    /// Starts the throwing `operation` now, like `Task { }` with a body that throws; `value` rethrows
    /// its error.
    public init(
        _ name: StaticString,
        priority: TaskPriority? = nil,
        @_inheritActorContext operation: sending @escaping @isolated(any) () async throws -> Success
    ) {
        let handOff = Self.handOff(name)
        let task: Task<Success, any Error>
        if handOff.child != nil {
            task = Task(executorPreference: ExplorerExecutor.shared, priority: priority) {
                try await handOff.run { try await operation() }
            }
        } else {
            task = Task(priority: priority) { try await handOff.run { try await operation() } }
        }
        self.init(name: name, handOff: handOff, task: task)
    }

    /// The task's result, waiting for it to finish; throws what the body threw.
    public var value: Success {
        get async throws {
            awaitEnd()
            return try await task.value
        }
    }

    /// The task's result or its error, waiting for it to finish.
    public var result: Result<Success, any Error> {
        get async {
            awaitEnd()
            return await task.result
        }
    }
}

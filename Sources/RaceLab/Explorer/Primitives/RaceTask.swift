/// A `Task` that the schedule explorer can see.
///
/// Like `RaceLock`, and like the task types of loom and Shuttle: outside exploration it is a plain
/// `Task` whose body keeps the creator's race-window hook. Under the explorer its body is a logical
/// thread of its own (see `RaceHandOff`), and `value` is a scheduling point that waits for that
/// thread to finish. That is what lets the explorer run code in which two callers await one task:
/// waiting on a plain `Task` that is paused at a scheduling point would block the waiter on
/// something the explorer does not know about.
public struct RaceTask<Success: Sendable>: Sendable {
    private let task: Task<Success, Never>
    private let handOff: RaceHandOff
    private let name: StaticString

    /// Starts `operation` now, like `Task { }`. `name` (e.g. `"load task"`) names the task's thread
    /// in schedules, and waiting for it is shown as `await <name>`.
    public init(_ name: StaticString, operation: @escaping @Sendable () async -> Success) {
        let handOff = Race.handOff(name)
        self.handOff = handOff
        self.name = name
        if handOff.child != nil {
            // On the explorer's own threads: the body blocks a thread while it waits for its turn,
            // which must never be one of the cooperative pool's few.
            task = Task(executorPreference: ExplorerExecutor.shared) { await handOff.run(operation) }
        } else {
            task = Task { await handOff.run(operation) }
        }
    }

    /// The task's result, waiting for it to finish.
    public var value: Success {
        get async {
            handOff.awaitEnd("await \(name)")
            return await task.value
        }
    }
}

import Foundation

/// A small, explorable version of a variant's scenario: a few logical threads running the variant's
/// real code on fresh shared state, and the invariant that must hold once they have all finished.
///
/// The stress runner needs a thousand iterations to make a window show; the explorer needs two
/// threads and the right order. So a variant that wants to be explored says how to build that tiny
/// program, not a model of it: the thread bodies call the very methods `racelab run` calls.
///
/// ```swift
/// Exploration(
///     summary: "each thread stores one key; invariant: every key is present",
///     makeState: { Storage() },
///     thread: { storage, index in storage.store(payload, forIdentifier: "item-\(index)") },
///     invariant: { storage, threads in storage.numberOfItems == threads ? nil : "lost a key" })
/// ```
public struct Exploration: Sendable {
    /// One line: what the threads do and what must hold afterwards.
    public let summary: String
    /// Threads used when `--threads` is not given.
    public let defaultThreads: Int

    let makeProgram: @Sendable (_ threads: Int) throws -> ExplorableProgram

    /// - Parameters:
    ///   - makeState: fresh shared state for one schedule.
    ///   - thread: what logical thread `index` (`0 ..< threads`) does; an error it throws fails the schedule.
    ///   - invariant: runs after every thread finished; returns nil when the state is correct, otherwise
    ///     one line saying what broke (shown as the failure).
    ///   - tearDown: releases what `makeState` acquired.
    public init<State: Sendable>(
        summary: String,
        defaultThreads: Int = 2,
        makeState: @escaping @Sendable () throws -> State,
        thread: @escaping @Sendable (State, Int) throws -> Void,
        invariant: @escaping @Sendable (State, Int) -> String?,
        tearDown: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.summary = summary
        self.defaultThreads = defaultThreads
        self.makeProgram = { threads in
            let state = try makeState()
            return ExplorableProgram(
                threads: (0..<threads).map { index in { try thread(state, index) } },
                invariant: { invariant(state, threads) },
                tearDown: { tearDown(state) }
            )
        }
    }
}

extension Exploration {
    /// An exploration whose thread bodies are `async`, for actors.
    ///
    /// Each logical thread starts one `Task` (which inherits the thread's `Race.hook`, so windows
    /// reached in it are scheduling points of that logical thread) and waits for it. The task prefers
    /// the explorer's own executor, and so do the default actors it calls: a task paused at a window
    /// blocks the thread it is on, which must not be one of the cooperative pool's. A task the code
    /// under test creates with `Task { }` runs on the pool and keeps its creator's hook; one that
    /// another thread awaits must be a `RaceTask`, or the waiter blocks outside the explorer's view
    /// and is reported stuck.
    public init<State: Sendable>(
        summary: String,
        defaultThreads: Int = 2,
        makeState: @escaping @Sendable () throws -> State,
        asyncThread: @escaping @Sendable (State, Int) async throws -> Void,
        invariant: @escaping @Sendable (State, Int) async -> String?,
        tearDown: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.init(
            summary: summary,
            defaultThreads: defaultThreads,
            makeState: makeState,
            thread: { state, index in
                // The task sees the logical thread's hook, and runs on the explorer's executor because it
                // pauses at scheduling points.
                try blockingWait(inheritingTaskLocalsOn: ExplorerExecutor.shared) {
                    try await asyncThread(state, index)
                }
            },
            invariant: { state, threads in blockingWait { await invariant(state, threads) } },
            tearDown: tearDown
        )
    }
}

/// One instance of an exploration: its thread bodies and checks, closed over one fresh state.
struct ExplorableProgram: Sendable {
    let threads: [@Sendable () throws -> Void]
    let invariant: @Sendable () -> String?
    let tearDown: @Sendable () -> Void
}

extension Variant {
    /// This variant, explorable with `racelab explore`.
    public func exploring(_ exploration: Exploration) -> Variant {
        var copy = self
        copy.exploration = exploration
        return copy
    }
}

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
    /// One line: what the threads do and what must hold afterwards, for `defaultThreads` threads
    /// (`summary(threads:)` says it for another count).
    public private(set) var summary: String
    /// What the threads do for a given count, where one line cannot say it for every count
    /// (`summarizing(_:)`); nil when `summary` holds for every count.
    private var summaryForThreads: (@Sendable (Int) -> String)?
    /// Threads used when `--threads` is not given.
    public let defaultThreads: Int
    /// Whether it can show its shared state between steps (`describeState`).
    public let describesState: Bool
    /// Whether its steps touch only what their points declare (see `declaringCompleteFootprints()`).
    public private(set) var footprintsComplete = false
    /// Whether its marks name every place where the order of its threads matters (see
    /// `markingEveryWindow()`).
    public private(set) var windowsMarked = false
    /// Whether an error thrown by a thread is the failure this exploration looks for (see
    /// `treatingErrorsAsFailures()`). False: an error is an ERROR, no evidence either way.
    public private(set) var errorsAreFailures = false
    /// Which failure the report keeps among equally short ones (see `preferringFailures(where:)`).
    public private(set) var preferredFailure: (@Sendable (String) -> Bool)? = nil
    /// Whether its threads run async bodies (`init(summary:defaultThreads:makeState:asyncThread:...)`).
    public private(set) var isAsync = false
    /// What names this program in its replay strings: the summary, and the variant's name when a
    /// variant declares it (`Variant.exploring(_:)`).
    var identity: String

    private(set) var makeProgram: @Sendable (_ threads: Int) throws -> ExplorableProgram

    /// - Parameters:
    ///   - summary: what the threads do and the invariant, in one line (shown in reports).
    ///   - defaultThreads: logical threads when the options name none.
    ///   - makeState: fresh shared state for one schedule.
    ///   - thread: what logical thread `index` (`0 ..< threads`) does. An error it throws makes the schedule
    ///     an ERROR (no evidence of the bug), unless the exploration is `treatingErrorsAsFailures()`.
    ///   - invariant: runs after every thread finished; returns nil when the state is correct, otherwise
    ///     one line saying what broke (shown as the failure).
    ///   - tearDown: releases what `makeState` acquired.
    ///   - describeState: the shared state in one short line (`contents: [item-0]`), shown by
    ///     `racelab play` before each decision and under `explore`'s failing schedule (text and
    ///     `--html`) after each step. Called only between steps, while every logical thread is
    ///     paused at a scheduling point, from a thread that is none of them; it must not wait for
    ///     anything a paused thread may hold (a lock it took, an actor it runs on), or it waits
    ///     forever. Nil (the default) when there is nothing cheap and safe to show.
    public init<State: Sendable>(
        summary: String,
        defaultThreads: Int = 2,
        makeState: @escaping @Sendable () throws -> State,
        thread: @escaping @Sendable (State, Int) throws -> Void,
        invariant: @escaping @Sendable (State, Int) -> String?,
        tearDown: @escaping @Sendable (State) -> Void = { _ in },
        describeState: (@Sendable (State) -> String)? = nil
    ) {
        self.summary = summary
        self.identity = summary
        self.defaultThreads = defaultThreads
        self.describesState = describeState != nil
        self.makeProgram = { threads in
            let state = try makeState()
            var describe: (@Sendable () -> String)?
            if let describeState { describe = { describeState(state) } }
            return ExplorableProgram(
                threads: (0..<threads).map { index in { try thread(state, index) } },
                invariant: { invariant(state, threads) },
                tearDown: { tearDown(state) },
                describeState: describe
            )
        }
    }
}

extension Exploration {
    /// An exploration whose thread bodies are `async`, for actors.
    ///
    /// Each logical thread starts one `Task` and waits for it. Under the explorer, the tasks' jobs
    /// run one at a time, a plain `Task { }` the code creates included, and every job is a scheduling
    /// point (a task's start, each resumption after an `await`, an actor's queue, a sleep's
    /// wake-up; see `AsyncJobs`): actor code needs no mark. A `Race.window` reached in a job, or a
    /// RaceLab primitive used there, adds a point inside it.
    public init<State: Sendable>(
        summary: String,
        defaultThreads: Int = 2,
        makeState: @escaping @Sendable () throws -> State,
        asyncThread: @escaping @Sendable (State, Int) async throws -> Void,
        invariant: @escaping @Sendable (State, Int) async -> String?,
        tearDown: @escaping @Sendable (State) -> Void = { _ in },
        describeState: (@Sendable (State) async -> String)? = nil
    ) {
        self.init(
            summary: summary,
            defaultThreads: defaultThreads,
            makeState: makeState,
            thread: { state, index in
                // Under the explorer the task's jobs are the thread's scheduling points.
                if let logical = LogicalThread.current, logical.execution.schedulesJobs {
                    return logical.execution.runTask(as: logical.id) { try await asyncThread(state, index) }
                }
                // The task sees the logical thread's hook, and runs on the explorer's executor because it
                // pauses at scheduling points.
                try blockingWait(inheritingTaskLocalsOn: ExplorerExecutor.shared) {
                    try await asyncThread(state, index)
                }
            },
            invariant: { state, threads in blockingWait { await invariant(state, threads) } },
            tearDown: tearDown,
            describeState: describeState.map { describe in
                { @Sendable (state: State) -> String in blockingWait { await describe(state) } }
            }
        )
        makeProgram = { [makeProgram] threads in
            var program = try makeProgram(threads)
            program.isAsync = true
            return program
        }
        isAsync = true
    }
}

extension Exploration {
    /// This exploration, declaring that an error thrown by a thread is the failure it looks for: a
    /// schedule in which a thread throws then fails, as a broken invariant does.
    ///
    /// Without it an error is an ERROR: the schedule says nothing about the bug (a temporary file
    /// that could not be written is not a race), and a search whose only bad schedules threw
    /// reports ERROR, never FOUND or FAILED. Declare it when the code under test reports the bug by
    /// throwing (a store that throws on a torn read, a check that throws on a lost update).
    public func treatingErrorsAsFailures() -> Exploration {
        var declared = self
        declared.errorsAreFailures = true
        return declared
    }

    /// This exploration, saying what its threads do for each thread count: a role given to "every
    /// other thread" is one thread with two threads and several with more, and the text names them.
    /// `summary` becomes the line for `defaultThreads`; replay strings stay named by the summary it
    /// was created with.
    public func summarizing(_ summary: @escaping @Sendable (_ threads: Int) -> String) -> Exploration {
        var declared = self
        declared.summaryForThreads = summary
        declared.summary = summary(defaultThreads)
        return declared
    }

    /// What the threads do and what must hold afterwards, for a run of `threads` logical threads.
    public func summary(threads: Int) -> String {
        summaryForThreads?(threads) ?? summary
    }

    /// The short fingerprint that names this program in replay strings (`Schedule.program`): six
    /// hexadecimal digits of a hash of its identity (summary, variant) and of whether marks are
    /// scheduling points, which changes what a choice means.
    public func fingerprint(marks: Bool) -> String {
        Fingerprint.of("\(identity)\nmarks: \(marks ? "on" : "off")")
    }
}

extension Exploration {
    /// This exploration, declaring that each of its steps (a thread's code from one scheduling
    /// point to the next) touches shared state only through what its point declares
    /// (`Race.window(_:on:)`, `Race.step(_:reading:)`, a `@RaceShared` variable) and the explorer's
    /// primitives (`RaceLock`, `RaceQueue`, …), and only in the way declared (a step that declares
    /// `reading:` does not write). The default reduction (`ExplorationOptions.Reduction.automatic`)
    /// is then `.states`, which skips schedules that only reorder steps that commute.
    ///
    /// Declare it only when it holds: a step that touches a plain shared variable, an object under a
    /// lock the explorer does not see, or an `Atomic` between two points makes steps look independent
    /// that are not, and the reduction may skip the order that fails. Checking it: every verdict,
    /// trace count and shortest failing schedule the same with `--reduction none` and `states`.
    public func declaringCompleteFootprints() -> Exploration {
        var declared = self
        declared.footprintsComplete = true
        return declared
    }

    /// This exploration, its report keeping, among the shortest failing schedules, the first whose
    /// message `preferred` accepts (the failure a lesson's story is about), else the first. It
    /// changes which schedule is shown, never what is counted or the verdict.
    public func preferringFailures(where preferred: @escaping @Sendable (String) -> Bool) -> Exploration {
        var preferring = self
        preferring.preferredFailure = preferred
        return preferring
    }
}

/// One instance of an exploration: its thread bodies and checks, closed over one fresh state.
struct ExplorableProgram: Sendable {
    let threads: [@Sendable () throws -> Void]
    let invariant: @Sendable () -> String?
    let tearDown: @Sendable () -> Void
    var describeState: (@Sendable () -> String)? = nil
    /// Whether the threads run async bodies (`Exploration.init(asyncThread:)`): their jobs are
    /// scheduling points.
    var isAsync = false
}

extension Variant {
    /// This variant, explorable with `racelab explore`.
    public func exploring(_ exploration: Exploration) -> Variant {
        var copy = self
        var named = exploration
        named.identity = "\(exploration.identity)\nvariant: \(name)"
        copy.exploration = named
        return copy
    }

    /// This variant, which `racelab explore` does not explore, saying why (`reason`, a clause:
    /// "its increments run in worker processes, …").
    public func notExplored(because reason: String) -> Variant {
        var copy = self
        copy.notExploredReason = reason
        return copy
    }
}

extension Exploration {
    /// This exploration, declaring that its marks (`Race.window`, `Race.step`) and RaceLab's
    /// primitives name every place where the order of its threads matters. With marks on
    /// (`ExplorationOptions.marks`), its Swift concurrency jobs are then no scheduling points, nor
    /// is submitting a `RaceQueue.async` item: the search runs the marked points and the
    /// primitives' waits alone, far fewer schedules. With marks off both are points again. The
    /// lessons' explorations, written with marks, declare it; code whose windows are not all marked
    /// should not, or the search skips the orders the marks do not name (a value read with `sync`
    /// and written back by an `async` barrier, with another thread's write in between).
    public func markingEveryWindow() -> Exploration {
        var declared = self
        declared.windowsMarked = true
        return declared
    }
}

/// One implementation of a lesson's pattern, buggy or fixed, as the runner executes it.
///
/// A variant says how to make fresh shared state for a trial, what each `concurrentPerform`
/// iteration does to it, and how to check the state once every iteration (and every task an
/// iteration started) has finished. The runner turns that into numbers: lost writes, duplicates,
/// inconsistencies, and a histogram of outcomes.
///
/// ```swift
/// Variant(name: "buggy", kind: .buggy, summary: "get and set are two work items",
///         makeState: { Storage() },
///         operation: { storage, iteration in storage.store(Data(), forIdentifier: "\(iteration.index)") },
///         check: { storage, trial in .kept(storage.count, of: trial.iterations, unit: "keys") })
/// ```
///
/// The state type is erased here so that a lesson can hold variants of different state types.
public struct Variant: Sendable {
    /// The name used on the command line (`--variant NAME`): lowercase words joined by dashes.
    public let name: String
    /// Whether the variant shows the bug or its fix (see `judged(as:)` to check it as the other).
    public internal(set) var kind: VariantKind
    /// One line on what this variant does differently.
    public let summary: String
    /// Overrides the lesson's default workload for this variant.
    public var workload: Workload?
    /// When true, the process running this variant dying from a signal is one of the bug's outcomes
    /// (unsynchronized `Array` or `Dictionary` mutation can corrupt memory and trap), so a crash
    /// counts as reproduced. Meaningful for buggy variants only; a fixed variant that crashes fails.
    public var crashMeansReproduced: Bool
    /// The start of the sample the lesson's story is about (`inconsistency: mixed state`): when any
    /// trial kept one, it leads the report's samples, so the line a room reads shows the story.
    public var leadingSample: String? = nil
    /// A few-thread version of the scenario for the schedule explorer (`racelab explore`), if any.
    public var exploration: Exploration? = nil
    /// Why a variant without an exploration has none, which `racelab explore` says beside its name.
    public var notExploredReason: String? = nil
    /// What ThreadSanitizer and the Swift 6 compiler are expected to make of this variant, one entry
    /// per operating system it was measured on (see `ToolExpectation`, `expecting(tsan:compiler:on:because:)`).
    public var toolExpectations: [ToolExpectation] = []
    /// Systems the variant is declared *unmeasured* on, with the reason (see `unmeasured(on:because:)`).
    public var unmeasuredReasons: [ToolExpectation.OperatingSystem: String] = [:]

    let makeTrial: @Sendable () throws -> TrialBody

    /// A variant whose operation is synchronous.
    ///
    /// - Parameters:
    ///   - name: unique in its lesson: lowercase words joined by dashes.
    ///   - kind: whether it shows the bug or its fix: what its verdict is judged against.
    ///   - summary: what it does, in one line.
    ///   - workload: its own workload; nil for the lesson's.
    ///   - crashMeansReproduced: a buggy variant whose bug is a crash: a trap while its own code runs
    ///     counts as reproduced (never one in its check).
    ///   - makeState: fresh shared state for one trial.
    ///   - operation: what iteration `i` of the trial does; an error it throws counts as an anomaly.
    ///   - check: runs after every iteration returned; compares what was expected with what is there.
    ///   - tearDown: releases what `makeState` acquired (a temporary folder, say), after the check.
    public init<State: Sendable>(
        name: String,
        kind: VariantKind,
        summary: String,
        workload: Workload? = nil,
        crashMeansReproduced: Bool = false,
        makeState: @escaping @Sendable () throws -> State,
        operation: @escaping @Sendable (State, Iteration) throws -> Void,
        check: @escaping @Sendable (State, TrialInfo) async throws -> Observation,
        tearDown: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.init(name, kind, summary, workload, crashMeansReproduced, makeState, check, tearDown) { state in
            .sync { iteration in try operation(state, iteration) }
        }
    }

    /// A variant whose operation is `async`, for actors and async APIs.
    ///
    /// Each `concurrentPerform` iteration starts one unstructured `Task` running `asyncOperation`
    /// and returns; the runner waits for every task of the trial before the check. Iterations never
    /// block waiting for their task, so the cooperative thread pool cannot be starved by the runner.
    public init<State: Sendable>(
        name: String,
        kind: VariantKind,
        summary: String,
        workload: Workload? = nil,
        crashMeansReproduced: Bool = false,
        makeState: @escaping @Sendable () throws -> State,
        asyncOperation: @escaping @Sendable (State, Iteration) async throws -> Void,
        check: @escaping @Sendable (State, TrialInfo) async throws -> Observation,
        tearDown: @escaping @Sendable (State) -> Void = { _ in }
    ) {
        self.init(name, kind, summary, workload, crashMeansReproduced, makeState, check, tearDown) { state in
            .async { iteration in try await asyncOperation(state, iteration) }
        }
    }

    /// The two public initialisers' common part: each trial makes its state, and `run` says how
    /// an iteration runs on it.
    private init<State: Sendable>(
        _ name: String,
        _ kind: VariantKind,
        _ summary: String,
        _ workload: Workload?,
        _ crashMeansReproduced: Bool,
        _ makeState: @escaping @Sendable () throws -> State,
        _ check: @escaping @Sendable (State, TrialInfo) async throws -> Observation,
        _ tearDown: @escaping @Sendable (State) -> Void,
        run: @escaping @Sendable (State) -> TrialBody.Run
    ) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.workload = workload
        self.crashMeansReproduced = crashMeansReproduced
        self.makeTrial = {
            let state = try makeState()
            return TrialBody(
                run: run(state),
                check: { info in try await check(state, info) },
                tearDown: { tearDown(state) }
            )
        }
    }
}

extension Variant {
    /// This variant, judged as `kind`: the same code and check, with the verdict a `kind` variant gets.
    ///
    /// A test that expects a variant declared `.buggy` to be clean (`expectClean`) judges it as
    /// `.fixed`, so that an anomaly makes it FAILED rather than REPRODUCED.
    public func judged(as kind: VariantKind) -> Variant {
        var copy = self
        copy.kind = kind
        return copy
    }
}

/// What a check knows about the trial it checks.
public struct TrialInfo: Sendable {
    /// The trial's number, `0 ..< trials`.
    public let trial: Int
    /// How many iterations ran.
    public let iterations: Int
}

/// One trial's shared state, closed over by its operation, check and tear-down.
struct TrialBody: Sendable {
    enum Run: Sendable {
        case sync(@Sendable (Iteration) throws -> Void)
        case async(@Sendable (Iteration) async throws -> Void)
    }

    let run: Run
    let check: @Sendable (TrialInfo) async throws -> Observation
    let tearDown: @Sendable () -> Void
}

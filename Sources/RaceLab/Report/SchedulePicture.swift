/// One variant's exploration, as the pictures of `racelab explore --html` and `--trace` draw it:
/// the failing schedule's steps, the threads they ran on, and the state after each step where the
/// exploration describes it.
public struct SchedulePicture: Sendable, Equatable {
    /// The variant's name, kind and verdict (`FOUND`, `CLEAN`, ...).
    public var variant: String
    /// Whether the variant is buggy or fixed.
    public var kind: VariantKind
    /// The verdict, as the text report prints it.
    public var verdict: String
    /// What the threads do and the invariant (the exploration's summary).
    public var invariant: String
    /// The figures of the search (or replay), in one line.
    public var figures: String
    /// The failing schedule; nil when none was found.
    public var failure: VariantExploration.Failure?
    /// One name per logical thread: `thread 0`, ..., then the spawned ones with their names.
    public var threadNames: [String]
    /// The state before the first step, then after each step; empty when not known.
    public var states: [String]
    /// The command line that replays the failing schedule.
    public var replayCommand: String?

    /// - Parameters:
    ///   - entry: the variant's exploration, as `racelab explore` reports it.
    ///   - invariant: what the threads do and the invariant (the exploration's summary).
    ///   - replayCommand: the command line that replays the failing schedule.
    ///   - states: as `ExecutionResult.states` of a replay of the failing schedule; ignored unless it
    ///     has one entry more than the schedule has steps.
    public init(
        _ entry: VariantExploration,
        invariant: String,
        states: [String] = [],
        replayCommand: String? = nil
    ) {
        variant = entry.variant
        kind = entry.kind
        verdict = entry.verdict
        self.invariant = invariant
        failure = entry.failure
        let spawned = entry.failure?.spawned ?? []
        threadNames =
            (0..<entry.threads).map { "thread \($0)" } + spawned.map { "thread \($0.thread): \($0.name)" }
        let stepCount = entry.failure?.steps.count ?? 0
        self.states = states.count == stepCount + 1 ? states : []
        self.replayCommand = replayCommand
        var figures: String
        switch entry.run {
        case .search(let report):
            figures = report.ranAndFailed()
        case .replay:
            figures = "replayed 1 schedule, \(grouped(entry.failingSchedules)) failed"
        }
        if let warning = entry.warning { figures += "; warning: \(warning)" }
        self.figures = figures
    }

    /// The state after step `index` (0-based), when known.
    func state(after index: Int) -> String? {
        states.isEmpty ? nil : states[index + 1]
    }
}

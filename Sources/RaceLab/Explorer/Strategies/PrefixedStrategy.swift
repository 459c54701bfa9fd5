/// Follows a fixed prefix of decisions, then lets another strategy choose: a search of the
/// schedules that begin where a player of `racelab play` stands (its hint).
///
/// Every execution replays the same prefix, so the inner strategy sees only the decisions after it
/// and searches as if the program started there. Where the prefix names a thread that cannot run
/// (the program is not deterministic under it), the inner strategy takes over early and the
/// warning says so.
final class PrefixedStrategy: SchedulingStrategy {
    private let prefix: [Int]
    private let inner: any SchedulingStrategy
    private var diverged = false

    init(_ prefix: [Int], then inner: any SchedulingStrategy) {
        self.prefix = prefix
        self.inner = inner
    }

    var warning: String? {
        diverged ? "the program did not follow the schedule prefix; the search went on from elsewhere" : inner.warning
    }

    func beginExecution() {
        inner.beginExecution()
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        if decision.step < prefix.count {
            if decision.enabled.contains(prefix[decision.step]) { return prefix[decision.step] }
            diverged = true
        }
        return inner.choose(decision)
    }

    func endExecution(_ result: ExecutionResult) -> Bool {
        inner.endExecution(result)
    }

    func annotate(_ report: inout ExplorationReport) {
        inner.annotate(&report)
    }
}

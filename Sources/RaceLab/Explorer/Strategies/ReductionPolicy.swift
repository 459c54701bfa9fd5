/// A reduction of the exhaustive search: which choices of the search tree (`SearchTree`) to try,
/// which to skip. The tree keeps the decisions, the preemption bound and the order of the choices;
/// a policy answers for each choice within the bound, and learns from what each execution did.
///
/// A new reduction is a type conforming to this protocol and a case of
/// `ExplorationOptions.Reduction` that `ExplorationOptions.makeStrategy` maps to it.
protocol ReductionPolicy {
    /// What the policy keeps at each decision of the tree.
    associatedtype Mark

    /// The reduction, as reports name it.
    var reduction: ExplorationOptions.Reduction { get }

    /// Called before each execution.
    mutating func beginExecution()

    /// Called at every decision, before the tree replays or opens one.
    mutating func observe(_ decision: SchedulingDecision)

    /// What the policy keeps at a decision the tree opens at `decision`, after `preemptions`
    /// preemptions.
    mutating func open(_ decision: SchedulingDecision, options: [Int], preemptions: Int) -> Mark

    /// A decision replayed from the prefix: false when it is not the one `mark` was opened at
    /// (the program is not deterministic under the schedule).
    mutating func replay(_ mark: inout Mark, at decision: SchedulingDecision) -> Bool

    /// Whether to take `option` of `branch`, where taking it spends `preemptions` in all (within
    /// the bound).
    mutating func verdict(
        on option: Int,
        of branch: SearchTree<Mark>.Branch,
        preemptions: Int
    ) -> SearchTree<Mark>.Verdict

    /// Called with the thread run at each decision.
    mutating func chose(_ thread: Int, at decision: SchedulingDecision)

    /// Called after each execution with its decisions, before the tree backtracks.
    mutating func endExecution(_ result: ExecutionResult, tree: inout SearchTree<Mark>)

    /// Adds the policy's own figures to a report of the search.
    func annotate(_ report: inout ExplorationReport, tree: SearchTree<Mark>)
}

extension ReductionPolicy {
    mutating func beginExecution() {}
    mutating func observe(_ decision: SchedulingDecision) {}
    mutating func replay(_ mark: inout Mark, at decision: SchedulingDecision) -> Bool { true }
    mutating func chose(_ thread: Int, at decision: SchedulingDecision) {}
    mutating func endExecution(_ result: ExecutionResult, tree: inout SearchTree<Mark>) {}
    func annotate(_ report: inout ExplorationReport, tree: SearchTree<Mark>) {}
}

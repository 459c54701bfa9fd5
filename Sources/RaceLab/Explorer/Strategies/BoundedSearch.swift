/// Exhaustive search over every schedule with at most `preemptionBound` preemptions, without
/// storing states: each execution replays a prefix of decisions of the search tree
/// (`SearchTree`), then opens new ones; backtracking moves the deepest decision with a choice left
/// on to it. Which choices are tried is the reduction's (`ReductionPolicy`): every one
/// (`NoReduction`), the ones races ask for (`DPORReduction`), the ones that lead to a state not
/// searched yet (`StateCachingReduction`).
///
/// The report counts the distinct traces its finished executions covered (`TraceKey`).
final class BoundedSearch<Policy: ReductionPolicy>: SchedulingStrategy {
    private typealias Tree = SearchTree<Policy.Mark>

    private var tree: Tree
    private var policy: Policy
    private var traces = Set<TraceDigest>()
    /// The trace of the last execution that finished (nil for one that did not).
    private(set) var lastTrace: TraceDigest?

    var warning: String? {
        tree.nondeterministic
            ? ParallelExploration.nondeterministicWarning : nil
    }

    init(preemptionBound: Int, policy: Policy) {
        tree = SearchTree(preemptionBound: preemptionBound)
        self.policy = policy
    }

    func beginExecution() {
        tree.beginExecution()
        policy.beginExecution()
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        policy.observe(decision)
        let (options, currentEnabled) = Tree.options(of: decision)
        defer { tree.advance() }
        let chosen: Int
        if let replayed = tree.replaying(options, matches: { policy.replay(&$0, at: decision) }) {
            chosen = replayed
        } else if tree.redundantFrom != nil {
            chosen = decision.nonPreemptive
        } else {
            let mark = policy.open(decision, options: options, preemptions: tree.branches.last?.preemptionsAfter ?? 0)
            chosen = tree.open(options, currentEnabled: currentEnabled, mark: mark, verdict: verdict) ?? options[0]
        }
        policy.chose(chosen, at: decision)
        return chosen
    }

    /// The policy's verdict on a choice within the bound.
    private func verdict(_ option: Int, _ branch: Tree.Branch, _ preemptions: Int) -> Tree.Verdict {
        policy.verdict(on: option, of: branch, preemptions: preemptions)
    }

    /// Prepares the next schedule; false when every schedule within the bound has been run.
    func endExecution(_ result: ExecutionResult) -> Bool {
        // An unfinished execution is no behaviour of the program, and its key costs the square of
        // its steps (as many as the bound).
        lastTrace = result.outcome.isInconclusive ? nil : TraceKey(result).digest
        if let lastTrace { traces.insert(lastTrace) }
        tree.endExecution()
        policy.endExecution(result, tree: &tree)
        return tree.backtrack(verdict)
    }

    func annotate(_ report: inout ExplorationReport) {
        report.reduction = policy.reduction
        report.tracesCovered = traces.count
        policy.annotate(&report, tree: tree)
    }
}

extension BoundedSearch: TaskSearch {
    func freeze(prefix: [Int], depth: Int) {
        tree.freeze(prefix: prefix, depth: depth)
    }

    var nondeterministic: Bool { tree.nondeterministic }

    func frozenDecisions() -> [FrozenDecision] {
        tree.branches.prefix(tree.frozenDepth).map { branch in
            let offered = branch.options.indices.filter { option in
                branch.preemptionsBefore + branch.cost(of: option) <= tree.preemptionBound
            }
            let requested = offered.filter { option in
                let preemptions = branch.preemptionsBefore + branch.cost(of: option)
                return policy.verdict(on: option, of: branch, preemptions: preemptions) == .take
            }
            return FrozenDecision(
                options: branch.options,
                thread: branch.thread,
                requested: requested,
                offered: offered
            )
        }
    }
}

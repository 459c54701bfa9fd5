/// The search tree of an exhaustive, preemption-bounded search (loom's `rt/path.rs`): the decisions
/// of the current execution, each with the choices it offers, the one taken, and the ones done.
///
/// A *preemption* is switching away from a thread that could have gone on. Switching because the
/// running thread finished or waits for a lock is free. Bounding preemptions (Musuvathi and Qadeer,
/// CHESS) keeps the count polynomial while most real bugs need only one or two.
///
/// The tree decides the order (the running thread first, then the others by id) and the bound;
/// which choices are tried is a `ReductionPolicy`'s (`BoundedSearch` runs the two together).
struct SearchTree<Mark> {
    /// One decision: the choices it offers and what is done with them.
    struct Branch {
        /// Choices in the order tried: the running thread first (no preemption), then the others.
        let options: [Int]
        /// The option the current execution takes.
        var index = 0
        /// Preemptions spent by the decisions before this one.
        let preemptionsBefore: Int
        /// Whether the previous thread could go on, so that choosing another one is a preemption.
        let currentEnabled: Bool
        /// Options taken, or passed over for good: never offered again.
        var done: Set<Int> = []
        /// What the reduction keeps at this decision.
        var mark: Mark

        /// The thread the current execution runs here.
        var thread: Int { options[index] }

        /// Preemptions spent by this decision and the ones before it.
        var preemptionsAfter: Int { preemptionsBefore + cost(of: index) }

        /// The preemption that taking `option` costs here: 1 for another thread than the running one.
        func cost(of option: Int) -> Int { option > 0 && currentEnabled ? 1 : 0 }
    }

    /// What a reduction says about one choice.
    enum Verdict {
        /// Take it now.
        case take
        /// Not now; it may be asked for later (a race found in a later execution).
        case later
        /// Never: what it leads to is searched already.
        case never
    }

    let preemptionBound: Int
    /// The current execution's decisions, from the first; those past `depth` are the prefix it
    /// has yet to replay.
    private(set) var branches: [Branch] = []
    /// Decisions made in the current execution.
    private(set) var depth = 0
    /// The first decision of this execution at which the reduction tried no choice: the rest of
    /// the execution repeats what is searched already, and runs without decisions.
    private(set) var redundantFrom: Int?
    /// Executions that, from some decision on, ran without decisions (`redundantFrom`).
    private(set) var redundantExecutions = 0
    /// Set when an execution did not see the choices its prefix recorded: the program is not
    /// deterministic under a fixed schedule, so counts would be wrong.
    private(set) var nondeterministic = false

    /// Decisions above this depth are a parallel task's (`ExplorationTask`): opened with a fixed
    /// choice (`forced`, then the first option) and never backtracked. 0 for a whole search.
    private(set) var frozenDepth = 0
    /// The task's prefix: the thread chosen at each of the first decisions.
    private(set) var forced: [Int] = []

    init(preemptionBound: Int) {
        self.preemptionBound = preemptionBound
    }

    /// Makes the search a task's: the decisions before `depth` take `prefix`'s threads, then each
    /// one's first option, and are never backtracked.
    mutating func freeze(prefix: [Int], depth: Int) {
        forced = prefix
        frozenDepth = depth
    }

    /// The choices a decision offers, in the order tried, and whether the running thread is among them.
    static func options(of decision: SchedulingDecision) -> (options: [Int], currentEnabled: Bool) {
        let (enabled, current) = (decision.enabled, decision.current)
        guard let current, enabled.contains(current) else { return (enabled, false) }
        return ([current] + enabled.filter { $0 != current }, true)
    }

    mutating func beginExecution() {
        depth = 0
        redundantFrom = nil
    }

    /// The decision at `depth` of the prefix, when it offers `options`; otherwise nil, and the
    /// prefix from there on is dropped (the program took another path under the same schedule).
    mutating func replaying(_ options: [Int], matches: (inout Mark) -> Bool) -> Int? {
        guard depth < branches.count else { return nil }
        if branches[depth].options == options && matches(&branches[depth].mark) { return branches[depth].thread }
        nondeterministic = true
        branches.removeSubrange(depth...)
        return nil
    }

    /// Opens a decision at `depth` with the first choice `verdict` takes; when it takes none, the
    /// rest of the execution runs without decisions (`redundantFrom`) and nil is returned.
    mutating func open(
        _ options: [Int],
        currentEnabled: Bool,
        mark: Mark,
        verdict: (Int, Branch, Int) -> Verdict
    ) -> Int? {
        var branch = Branch(
            options: options,
            preemptionsBefore: branches.last?.preemptionsAfter ?? 0,
            currentEnabled: currentEnabled,
            mark: mark
        )
        if depth < frozenDepth {
            // A task's fixed decision: the coordinator asked for it, so it is within the bound.
            var index = 0
            if depth < forced.count {
                if let wanted = options.firstIndex(of: forced[depth]) {
                    index = wanted
                } else {
                    nondeterministic = true
                }
            }
            branch.index = index
            branch.done = Set(options.indices)
            branches.append(branch)
            return options[index]
        }
        guard let first = next(of: &branch, verdict) else {
            redundantFrom = depth
            redundantExecutions += 1
            return nil
        }
        branch.index = first
        branches.append(branch)
        return options[first]
    }

    /// Counts a decision made (replayed, opened or run through).
    mutating func advance() {
        depth += 1
    }

    /// Ends the current execution: `branches` are then its decisions, for a reduction to learn
    /// from before `backtrack`.
    mutating func endExecution() {
        if depth < branches.count { branches.removeSubrange(depth...) }
    }

    /// The mark of decision `index` of the execution that just ended.
    subscript(mark index: Int) -> Mark {
        get { branches[index].mark }
        set { branches[index].mark = newValue }
    }

    /// Prepares the next execution: the deepest decision with a choice left moves on to it, and
    /// the decisions after it are dropped. False when no decision has a choice left.
    mutating func backtrack(_ verdict: (Int, Branch, Int) -> Verdict) -> Bool {
        while branches.count > frozenDepth, var branch = branches.popLast() {
            guard let next = next(of: &branch, verdict) else { continue }
            branch.index = next
            branches.append(branch)
            return true
        }
        return false
    }

    /// The next option of `branch` that is within the bound, not done, and taken by `verdict`
    /// (given the option, the branch and the preemptions spent with it), marking it done and every
    /// option passed over for good.
    private func next(of branch: inout Branch, _ verdict: (Int, Branch, Int) -> Verdict) -> Int? {
        for option in branch.options.indices where !branch.done.contains(option) {
            let preemptions = branch.preemptionsBefore + branch.cost(of: option)
            guard preemptions <= preemptionBound else {
                branch.done.insert(option)
                continue
            }
            switch verdict(option, branch, preemptions) {
            case .take:
                branch.done.insert(option)
                return option
            case .later: continue
            case .never: branch.done.insert(option)
            }
        }
        return nil
    }
}

/// `.dpor`: a decision tries only the choices a finished execution showed to matter (dynamic
/// partial-order reduction, Flanagan and Godefroid, POPL 2005): two steps of different threads that
/// touch a common object (`Footprint`) and are not already ordered by the execution are a race,
/// and the other order of the race is scheduled at the decision before its first step. Orders of
/// independent steps are not tried again. Under a preemption bound that alone misses schedules
/// (Coons, Musuvathi and McKinley, OOPSLA 2013: the bound adds dependences of its own), so each race
/// is also scheduled at the start of the first step's run of consecutive steps, where taking
/// another thread may cost no preemption; see `RaceAnalysis`.
///
/// No sleep sets (Godefroid): a sleep set keeps a thread from running where the order it would
/// start was explored from an earlier choice, but under a preemption bound that order may need a
/// preemption more than the bound allows, and the schedules only the skipped order reaches within
/// the bound are lost. Without them a trace may run more than once; `tracesCovered` counts it
/// once. `DifferentialFuzzTests` and `ReductionTests` hold this search to `.none`: the same final
/// states, verdicts and traces within each bound.
struct DPORReduction: ReductionPolicy {
    struct Mark {
        /// Threads to try here: the first choice, and those races asked for.
        var backtrack: Set<Int>
        /// Every unfinished thread's paused operation here, and what it declares it touches.
        var pending: [(thread: Int, footprint: Footprint)]
    }

    var reduction: ExplorationOptions.Reduction { .dpor }

    func open(_ decision: SchedulingDecision, options: [Int], preemptions: Int) -> Mark {
        Mark(backtrack: [options[0]], pending: Self.pending(decision))
    }

    func replay(_ mark: inout Mark, at decision: SchedulingDecision) -> Bool {
        // Objects are fresh in every execution: what the paused operations touch must be taken
        // from this one, never from the execution that first made the decision.
        mark.pending = Self.pending(decision)
        return true
    }

    func verdict(on option: Int, of branch: SearchTree<Mark>.Branch, preemptions: Int) -> SearchTree<Mark>.Verdict {
        // A choice no race asked for yet may be asked for by one found later.
        branch.mark.backtrack.contains(branch.options[option]) ? .take : .later
    }

    func endExecution(_ result: ExecutionResult, tree: inout SearchTree<Mark>) {
        let races = RaceAnalysis(result, decisions: tree.branches.count, pending: tree.branches.map(\.mark.pending))
        for race in races.reversals {
            for decision in [race.decision] + (race.blockStart.map { [$0] } ?? []) {
                let options = tree.branches[decision].options
                tree[mark: decision].schedule(race.thread, options: options)
            }
        }
    }

    /// Every unfinished thread's paused operation at `decision`, with what it declares it touches.
    static func pending(_ decision: SchedulingDecision) -> [(thread: Int, footprint: Footprint)] {
        decision.pending.indices.compactMap { thread in
            decision.pending[thread].map { point in
                var footprint = point.footprint
                footprint.insert(.thread(thread))
                return (thread, footprint)
            }
        }
    }
}

extension DPORReduction.Mark {
    /// Adds `thread` to the choices to try, or every option when it cannot run here.
    mutating func schedule(_ thread: Int, options: [Int]) {
        if options.contains(thread) {
            backtrack.insert(thread)
        } else {
            backtrack.formUnion(options)
        }
    }
}

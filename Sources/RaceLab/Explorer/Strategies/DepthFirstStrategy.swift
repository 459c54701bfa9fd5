/// Exhaustive search over every schedule with at most `preemptionBound` preemptions, without
/// storing states: each execution replays a prefix of decisions, then takes the first choice
/// everywhere after it; backtracking moves the deepest decision with an untried choice on.
///
/// A *preemption* is switching away from a thread that could have gone on. Switching because the
/// running thread finished or waits for a lock is free. Bounding preemptions (Musuvathi and Qadeer,
/// CHESS) keeps the count polynomial while most real bugs need only one or two.
///
/// With `reduction: .none` every choice at every decision is tried (within the bound). With
/// `.dpor`, a decision tries only the choices a finished execution showed to matter (dynamic
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
final class DepthFirstStrategy: SchedulingStrategy {
    private struct Decision {
        /// Choices in the order tried: the running thread first (no preemption), then the others.
        var options: [Int]
        var index: Int
        var preemptionsBefore: Int
        /// Whether the previous thread could go on, so that choosing another one is a preemption.
        var currentEnabled: Bool
        /// Choices tried or being tried.
        var explored: Set<Int>
        /// Choices to try: every option without reduction; with dpor, those races asked for.
        var backtrack: Set<Int>
        /// dpor: every unfinished thread's paused operation here, and what it declares it touches.
        var pending: [(thread: Int, footprint: Footprint)] = []
        var preemptionsAfter: Int { preemptionsBefore + cost(of: index) }

        func cost(of option: Int) -> Int { option > 0 && currentEnabled ? 1 : 0 }

        /// Adds `thread` to the choices to try, or every option when it cannot run here.
        mutating func schedule(_ thread: Int) {
            if options.contains(thread) {
                backtrack.insert(thread)
            } else {
                backtrack.formUnion(options)
            }
        }
    }

    let preemptionBound: Int
    let reduction: ExplorationOptions.Reduction
    private var stack: [Decision] = []
    private var depth = 0
    /// Set when an execution did not see the choices its prefix recorded: the program is not
    /// deterministic under a fixed schedule, so counts would be wrong.
    private(set) var nondeterministic = false

    var warning: String? {
        nondeterministic
            ? "the program made different choices under the same schedule prefix; counts are not exact" : nil
    }

    init(preemptionBound: Int, reduction: ExplorationOptions.Reduction = .none) {
        self.preemptionBound = preemptionBound
        self.reduction = reduction
    }

    func beginExecution() {
        depth = 0
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let (enabled, current) = (decision.enabled, decision.current)
        let currentEnabled = current.map(enabled.contains) ?? false
        let options = currentEnabled ? [current!] + enabled.filter { $0 != current } : enabled
        defer { depth += 1 }
        if depth < stack.count {
            if stack[depth].options != options {
                nondeterministic = true
                stack.removeSubrange(depth...)
            } else {
                // Objects are fresh in every execution: what the paused operations touch must be
                // taken from this one, never from the execution that first made the decision.
                if reduction == .dpor { stack[depth].pending = Self.pending(decision) }
                return stack[depth].options[stack[depth].index]
            }
        }
        var node = Decision(
            options: options,
            index: 0,
            preemptionsBefore: stack.last?.preemptionsAfter ?? 0,
            currentEnabled: currentEnabled,
            explored: [options[0]],
            backtrack: reduction == .none ? Set(options) : [options[0]]
        )
        if reduction == .dpor { node.pending = Self.pending(decision) }
        stack.append(node)
        return options[0]
    }

    /// Every unfinished thread's paused operation at `decision`, with what it declares it touches.
    private static func pending(_ decision: SchedulingDecision) -> [(thread: Int, footprint: Footprint)] {
        decision.pending.indices.compactMap { thread in
            decision.pending[thread].map { point in
                var footprint = point.footprint
                footprint.insert(.thread(thread))
                return (thread, footprint)
            }
        }
    }

    /// Prepares the next schedule; false when every schedule within the bound has been run.
    func endExecution(_ result: ExecutionResult) -> Bool {
        if depth < stack.count { stack.removeSubrange(depth...) }
        if reduction == .dpor {
            let races = RaceAnalysis(result, decisions: stack.count, pending: stack.map(\.pending))
            for race in races.reversals {
                stack[race.decision].schedule(race.thread)
                if let start = race.blockStart { stack[start].schedule(race.thread) }
            }
        }
        while var decision = stack.popLast() {
            let next = decision.options.indices.first { option in
                let thread = decision.options[option]
                return decision.backtrack.contains(thread) && !decision.explored.contains(thread)
                    && decision.preemptionsBefore + decision.cost(of: option) <= preemptionBound
            }
            guard let next else { continue }
            decision.index = next
            decision.explored.insert(decision.options[next])
            stack.append(decision)
            return true
        }
        return false
    }
}

@testable import RaceLab

/// A reduction known to miss schedules, kept to show that `DifferentialFuzzTests` finds such
/// misses: `.dpor` (`DPORReduction`) as it was with sleep sets, which, combined with the
/// preemption bound by a cost rule, skipped orders that only a schedule within the bound reaches
/// (the search keeps a thread asleep down a subtree although the order that explored its step
/// needs a preemption more). Never used outside this test target.
final class SleepSetDPORStrategy: SchedulingStrategy {
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
        /// dpor: choices scheduled only for the preemption bound: tried even when asleep.
        var conservative: Set<Int> = []
        /// dpor: whether the current choice was tried as a conservative point.
        var currentConservative = false
        /// dpor: whether the current choice's step touched only what its point declared.
        var currentDeclaredAll = false
        /// dpor: whether the current choice's thread could go on after its step (a later choice
        /// that preempts nobody still preempts it).
        var currentContinues = true
        /// dpor: whether the current choice's step may have let a waiting thread go on: it used a
        /// primitive's model, or its thread finished (a join waits for it).
        var currentMayEnable = true
        /// dpor: the threads asleep here, as this execution's steps leading here leave them.
        var sleep: Set<Int> = []
        /// dpor: choices explored here, not as conservative points, whose step touched only what
        /// its point declared, each with the preemptions that running it first costs at most
        /// (here and at the switch after it). Asleep in the subtrees of the choices tried after
        /// them that cost at least as much; see `sleepingThreads(after:)`.
        var taken: [Int: Int] = [:]
        var preemptionsAfter: Int { preemptionsBefore + cost(of: index) }

        func cost(of option: Int) -> Int { Self.cost(of: option, currentEnabled: currentEnabled) }

        static func cost(of option: Int, currentEnabled: Bool) -> Int { option > 0 && currentEnabled ? 1 : 0 }

        /// Adds `thread` to the choices to try, or every option when it cannot run here; a race's
        /// reversal is dropped where its thread sleeps, a conservative point never is.
        mutating func schedule(_ thread: Int, conservative isConservative: Bool) {
            for option in options.contains(thread) ? [thread] : options {
                if isConservative {
                    conservative.insert(option)
                    backtrack.insert(option)
                } else if !sleep.contains(option) {
                    backtrack.insert(option)
                }
            }
        }

        /// What the thread paused at `option` declares here, nil when it is not paused here.
        func declared(by thread: Int) -> Footprint? {
            pending.first { $0.thread == thread }?.footprint
        }
    }

    let preemptionBound: Int
    let reduction: ExplorationOptions.Reduction
    private var stack: [Decision] = []
    private var depth = 0
    /// dpor: the first decision of this execution at which every choice that preempts nobody was
    /// asleep, nil when none was: every trace through it was explored already.
    private var asleepFrom: Int?
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
        asleepFrom = nil
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
                if reduction == .dpor {
                    stack[depth].pending = DPORReduction.pending(decision)
                    stack[depth].sleep = sleepingThreads(after: decision.previousStep)
                }
                return stack[depth].options[stack[depth].index]
            }
        }
        let before = stack.last?.preemptionsAfter ?? 0
        var index = 0
        var sleep: Set<Int> = []
        if reduction == .dpor {
            sleep = sleepingThreads(after: decision.previousStep)
            // The first choice within the bound whose thread is awake (the running thread first).
            let free = options.indices.filter {
                before + Decision.cost(of: $0, currentEnabled: currentEnabled) <= preemptionBound
            }
            if let awake = free.first(where: { !sleep.contains(options[$0]) }) {
                index = awake
            } else if asleepFrom == nil {
                asleepFrom = depth
            }
        }
        var node = Decision(
            options: options,
            index: index,
            preemptionsBefore: before,
            currentEnabled: currentEnabled,
            explored: [options[index]],
            backtrack: reduction == .none ? Set(options) : [options[index]]
        )
        if reduction == .dpor {
            node.pending = DPORReduction.pending(decision)
            node.sleep = sleep
        }
        stack.append(node)
        return options[index]
    }

    /// The threads asleep at decision `depth`: those asleep at the decision before it, or explored
    /// there before its current choice at no greater cost, whose paused operation does not depend
    /// on the step that choice ran (`previousStep`). Empty at the first decision.
    ///
    /// Why the cost: thread `u` explored at decision `n`, then `v` there, `u` asleep down `v`'s
    /// subtree until a step dependent on it. A schedule `n·v…·u·R` left out for it is equivalent to
    /// `n·u·v…·R`, which `u`'s subtree covers only if that is within the preemption bound too. The
    /// second costs at most `cost(u at n) + cost(u → v) + e − cost(v at n)` more than the first:
    /// the switches inside `v…` cost the same, and the one into `R` no more, unless `u`'s step let
    /// the thread that ran last in `v…` go on (then `e` is 1: a model used, or `u` finished, which
    /// a join waits for). `taken` holds `cost(u at n) + cost(u → v) + e`, so `u` sleeps only where
    /// the difference cannot be positive. Without the bound
    /// this is Godefroid's sleep set; with it, an order that only a preemption more could reach
    /// stays awake (Coons, Musuvathi and McKinley show the naive combination loses schedules).
    private func sleepingThreads(after previousStep: Footprint?) -> Set<Int> {
        guard depth > 0 else { return [] }
        let parent = stack[depth - 1]
        let step = previousStep ?? .everything
        let cost = parent.cost(of: parent.index)
        let taken = parent.taken.filter { $0.value <= cost }.keys
        return parent.sleep.union(taken).filter { thread in
            guard let declared = parent.declared(by: thread) else { return false }
            return !declared.isDependent(on: step)
        }
    }

    /// Prepares the next schedule; false when every schedule within the bound has been run.
    func endExecution(_ result: ExecutionResult) -> Bool {
        if depth < stack.count { stack.removeSubrange(depth...) }
        if reduction == .dpor {
            for index in stack.indices where index < result.footprints.count {
                let thread = stack[index].options[stack[index].index]
                let declared = stack[index].declared(by: thread)
                stack[index].currentDeclaredAll = declared.map(result.footprints[index].isCovered) ?? false
            }
            for index in stack.indices {
                let next = index + 1 < stack.count ? stack[index + 1] : nil
                let thread = stack[index].options[stack[index].index]
                stack[index].currentContinues = next?.currentEnabled ?? true
                let finished = next.map { next in !next.pending.contains { $0.thread == thread } } ?? true
                let usedModel = index < result.footprints.count ? result.footprints[index].usedModel : true
                stack[index].currentMayEnable = finished || usedModel
            }
            // Past a decision where every free choice slept, the execution only repeats explored
            // traces: races there are not scheduled (those before it still are).
            let limit = asleepFrom ?? stack.count
            let races = RaceAnalysis(result, decisions: stack.count, pending: stack.map(\.pending))
            for race in races.reversals {
                if race.decision < limit { stack[race.decision].schedule(race.thread, conservative: false) }
                if let start = race.blockStart, start < limit { stack[start].schedule(race.thread, conservative: true) }
            }
        }
        while var decision = stack.popLast() {
            let next = decision.options.indices.first { option in
                let thread = decision.options[option]
                return decision.backtrack.contains(thread) && !decision.explored.contains(thread)
                    && decision.preemptionsBefore + decision.cost(of: option) <= preemptionBound
            }
            guard let next else { continue }
            let previous = decision.options[decision.index]
            if !decision.currentConservative && decision.currentDeclaredAll {
                decision.taken[previous] =
                    decision.cost(of: decision.index) + (decision.currentContinues ? 1 : 0)
                    + (decision.currentMayEnable ? 1 : 0)
            }
            decision.index = next
            decision.currentConservative = decision.conservative.contains(decision.options[next])
            decision.explored.insert(decision.options[next])
            stack.append(decision)
            return true
        }
        return false
    }
}

extension SleepSetDPORStrategy {
    /// The final states this search reaches on `program` within `preemptions`; nil when it ran
    /// `limit` schedules without finishing.
    static func finals(of program: FuzzProgram, preemptions: Int, limit: Int) async throws -> Set<String>? {
        try await onOwnThread {
            let finals = FinalStates()
            let exploration = program.exploration(recording: finals) { _ in false }
            let strategy = SleepSetDPORStrategy(preemptionBound: preemptions, reduction: .dpor)
            for _ in 0..<limit {
                let result = ControlledExecution.run(
                    try exploration.makeProgram(program.threads.count),
                    strategy: strategy,
                    stepBound: 1_000,
                    stallTimeout: 10
                )
                if !strategy.endExecution(result) { return finals.all }
            }
            return nil
        }
    }
}

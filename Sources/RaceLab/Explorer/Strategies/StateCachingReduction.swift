/// `.states`: the exhaustive search within a preemption bound runs each *state* once.
///
/// A state is what the steps so far leave behind. Two schedule prefixes that differ only in the
/// order of steps that commute (their footprints do not meet, see `Footprint`) are the same
/// Mazurkiewicz trace, so they leave the program in the same state, and every schedule that goes on
/// from one has a twin going on from the other that ends the same way. What can differ is the
/// preemption bound: the twin must be within it too. So a state here is identified by the trace
/// of its prefix (`TracePrefix`), and a visit of it also records the thread that ran last, whether
/// that thread could go on, and the preemptions spent to get there.
///
/// The search is `BoundedSearch`'s with every choice tried (as `.none`), except that a choice is
/// skipped when a visit already made *subsumes* it: a visit of the same state whose
/// continuations within the bound include all of the choice's. Visit `(s, y, c′)` (thread `y`
/// ran last, `c′` preemptions spent) subsumes `(s, x, c)` when `y == x` and `c′ ≤ c`, or when
/// `c′ + [y can go on in s] ≤ c`: a continuation's first switch costs at most one preemption
/// more after `y` than after `x`, and every later switch costs the same. A state whose threads
/// have all finished (or deadlocked) is subsumed by any visit.
///
/// Why that loses nothing within the bound: by induction on how many steps remain, a visited
/// state, once its subtree has been searched, has had every continuation within the bound run up
/// to trace equivalence. A visit that is not skipped tries every enabled thread within the bound;
/// a skipped choice is subsumed by a visit whose subtree is already searched (a visit of the same
/// trace is never on the current path, whose prefixes are shorter). Unlike sleep sets or DPOR's
/// backtracking sets, no argument about which order the bound allows is needed: the bound is part
/// of what a visit records. The reduction is only as sound as the footprints (the same caveat as
/// `.dpor`, see `Footprint`), and it assumes, as every replaying search here does, that the program
/// makes the same choices under the same schedule (a program that does not is flagged).
///
/// A choice can be skipped before it runs when the state its step leads to is known, which is
/// what keeps the count of executions down (an execution is spent on every choice that is not):
/// - from an earlier execution that ran the same thread from the same state (the step is the same);
/// - from an ancestor where that was known and every step since commuted with it (the step's record
///   is then unchanged: the sleep-set observation, used here only to *name* a state to look up);
/// - backward: a step that commuted with the steps just before it, by other threads, while its
///   thread could go on there, is the same event from each state before them;
/// - forward: a step every later step commuted with (all by other threads) could have run last, so
///   from the state without it, it leads to the state now.
/// Such a state is then skipped when a visit subsumes it, or when it is *covered*: its threads are
/// known and each one's step, within the bound, leads to a subsumed or covered state. A decision at
/// which every choice is skipped makes the rest of its execution redundant: it runs to the end
/// without opening decisions (it is still checked, and counted). `make bench-explorer` prints its
/// schedule and trace counts beside `.none`'s.
struct StateCachingReduction: ReductionPolicy {
    struct Mark {
        /// Each option's thread's canonical name (see `TracePrefix`).
        let names: [Int]
        let state: TracePrefix.Fingerprint
        /// Per option, the state its step leads to, where known when the decision was opened.
        let predicted: [TracePrefix.Fingerprint?]
    }

    /// One visit of a state.
    private struct Visit {
        /// The canonical name of the thread that ran last; -1 at the start.
        let last: Int
        let lastEnabled: Bool
        let preemptions: Int

        func subsumes(last other: Int, preemptions cost: Int) -> Bool {
            (last == other && preemptions <= cost) || preemptions + (lastEnabled ? 1 : 0) <= cost
        }
    }

    private struct Coverage: Hashable {
        let state: TracePrefix.Fingerprint
        let last: Int
        let preemptions: Int
    }

    private struct Transition: Hashable {
        let state: TracePrefix.Fingerprint
        let thread: Int
    }

    /// A step of this execution, as the inference of successors needs it.
    private struct PathStep {
        let state: TracePrefix.Fingerprint
        let enabled: Set<Int>
        let thread: Int
        let name: Int
        let footprint: Footprint
        let event: TracePrefix.Fingerprint
        let declaredAll: Bool
        /// Whether every step since this one was another thread's and commuted with it.
        var commutesSince = true
    }

    private struct Successor {
        let state: TracePrefix.Fingerprint
        /// Whether the step touched only what its point declared, so that the point's footprint in
        /// another execution is the step's.
        let declaredAll: Bool
    }

    let preemptionBound: Int
    private var visits: [TracePrefix.Fingerprint: [Visit]] = [:]
    private var ended: Set<TracePrefix.Fingerprint> = []
    /// Per state decided at (in any execution): the canonical names of the threads that could go on.
    private var enabledAt: [TracePrefix.Fingerprint: Set<Int>] = [:]
    private var successors: [Transition: Successor] = [:]
    private var covered: Set<Coverage> = []
    private var names = TracePrefix.Names()

    // This execution.
    private var prefix = TracePrefix()
    private var lastChosen:
        (thread: Int, operation: String, declared: Footprint, from: TracePrefix.Fingerprint, enabled: Set<Int>)?
    /// Per thread id: the event its next step is known to be (see the type's discussion), while
    /// every step since it was learned commuted with it.
    private var known: [Int: (event: TracePrefix.Fingerprint, footprint: Footprint)] = [:]
    /// This execution's steps so far: the state each ran from, the threads (canonical names) that
    /// could go on there, the thread (id) that ran it and what it really touched.
    private var path: [PathStep] = []
    private var enabledNow: Set<Int> = []

    var reduction: ExplorationOptions.Reduction { .states }

    init(preemptionBound: Int) {
        self.preemptionBound = preemptionBound
    }

    mutating func beginExecution() {
        prefix = TracePrefix()
        names.reset()
        lastChosen = nil
        known = [:]
        path = []
    }

    mutating func observe(_ decision: SchedulingDecision) {
        names.learn(decision.spawned, programThreads: decision.pending.count - decision.spawned.count)
        absorb(decision.previousStep ?? .everything)
        learnKnownSteps(decision)
        enabledNow = Set(decision.enabled.map(names.name))
        if enabledAt[prefix.fingerprint] == nil { enabledAt[prefix.fingerprint] = enabledNow }
    }

    func replay(_ mark: inout Mark, at decision: SchedulingDecision) -> Bool {
        mark.state == prefix.fingerprint
    }

    /// A new decision: records the visit of this state.
    mutating func open(_ decision: SchedulingDecision, options: [Int], preemptions: Int) -> Mark {
        let current = decision.current
        let last = current.map(names.name) ?? -1
        let lastEnabled = current.map(decision.enabled.contains) ?? false
        let state = prefix.fingerprint
        visits[state, default: []].append(Visit(last: last, lastEnabled: lastEnabled, preemptions: preemptions))
        let optionNames = options.map(names.name)
        if enabledAt[state] == nil { enabledAt[state] = Set(optionNames) }
        return Mark(
            names: optionNames,
            state: state,
            predicted: options.map { thread in known[thread].map { state + $0.event } }
        )
    }

    mutating func chose(_ thread: Int, at decision: SchedulingDecision) {
        var declared = decision.pending[thread]?.footprint ?? .everything
        declared.insert(.thread(thread))
        lastChosen = (thread, decision.pending[thread]?.name ?? "", declared, prefix.fingerprint, enabledNow)
    }

    /// Skips an option whose state a visit subsumes or that is covered; a skip is for good, since
    /// visits and coverage only grow.
    mutating func verdict(
        on option: Int,
        of branch: SearchTree<Mark>.Branch,
        preemptions cost: Int
    ) -> SearchTree<Mark>.Verdict {
        let thread = branch.mark.names[option]
        let state = branch.mark.state
        let next = successors[Transition(state: state, thread: thread)]?.state ?? branch.mark.predicted[option]
        if let next,
            isSubsumed(next, last: thread, preemptions: cost) || isCovered(next, last: thread, preemptions: cost)
        {
            return .never
        }
        return .take
    }

    /// Whether every continuation of `state`, reached with `last` run last and `preemptions` spent,
    /// is known to repeat searched states: for each thread that can go on there within the bound,
    /// the state its step leads to is known and is subsumed or, in turn, covered. Only states whose
    /// threads are known (reached by some execution) and steps whose results are known (run, or
    /// inferred, see `absorb`) count; an unknown one means "not covered". `budget` bounds the
    /// states looked at per question: past it the answer is "not covered", which costs an
    /// execution, never a behaviour.
    private mutating func isCovered(_ state: TracePrefix.Fingerprint, last: Int, preemptions: Int) -> Bool {
        var budget = 10_000
        return isCovered(state, last: last, preemptions: preemptions, budget: &budget)
    }

    private mutating func isCovered(
        _ state: TracePrefix.Fingerprint,
        last: Int,
        preemptions: Int,
        budget: inout Int
    ) -> Bool {
        let question = Coverage(state: state, last: last, preemptions: preemptions)
        if covered.contains(question) { return true }
        budget -= 1
        guard budget > 0, let enabled = enabledAt[state] else { return false }
        let lastEnabled = enabled.contains(last)
        for thread in enabled {
            let cost = preemptions + (thread != last && lastEnabled ? 1 : 0)
            guard cost <= preemptionBound else { continue }
            guard let next = successors[Transition(state: state, thread: thread)]?.state,
                isSubsumed(next, last: thread, preemptions: cost)
                    || isCovered(next, last: thread, preemptions: cost, budget: &budget)
            else { return false }
        }
        // Only "covered" is remembered: more visits can turn "not covered" into "covered", never back.
        covered.insert(question)
        return true
    }

    private func isSubsumed(_ state: TracePrefix.Fingerprint, last: Int, preemptions: Int) -> Bool {
        if ended.contains(state) { return true }
        return visits[state]?.contains { $0.subsumes(last: last, preemptions: preemptions) } ?? false
    }

    /// Adds the step that just ran (the thread chosen last, with what it really touched) to the
    /// prefix, and what it taught: the state that thread's step leads to from the state before it.
    private mutating func absorb(_ footprint: Footprint) {
        guard let chosen = lastChosen else { return }
        let name = names.name(chosen.thread)
        let event = prefix.append(thread: chosen.thread, name: name, operation: chosen.operation, footprint: footprint)
        let successor = Successor(state: prefix.fingerprint, declaredAll: footprint.isCovered(by: chosen.declared))
        successors[Transition(state: chosen.from, thread: name)] = successor
        // The same step from earlier states of this execution: back over the steps it commutes
        // with, while it could go on there, it is the same event (its record names only the
        // dependent steps before it, and those came before all of them).
        for earlier in path.reversed() {
            guard earlier.thread != chosen.thread, earlier.enabled.contains(name),
                !earlier.footprint.isDependent(on: footprint)
            else { break }
            let transition = Transition(state: earlier.state, thread: name)
            if successors[transition] == nil {
                successors[transition] = Successor(state: earlier.state + event, declaredAll: successor.declaredAll)
            }
        }
        // Forward: a step every later step commuted with could have run last; from the state
        // without it, it leads here.
        for index in path.indices where path[index].commutesSince {
            path[index].commutesSince =
                path[index].thread != chosen.thread
                && !path[index].footprint.isDependent(on: footprint)
            guard path[index].commutesSince else { continue }
            let transition = Transition(state: prefix.fingerprint - path[index].event, thread: path[index].name)
            if successors[transition] == nil {
                successors[transition] = Successor(state: prefix.fingerprint, declaredAll: path[index].declaredAll)
            }
        }
        path.append(
            PathStep(
                state: chosen.from,
                enabled: chosen.enabled,
                thread: chosen.thread,
                name: name,
                footprint: footprint,
                event: event,
                declaredAll: successor.declaredAll
            )
        )
        known[chosen.thread] = nil
        known = known.filter { !$0.value.footprint.isDependent(on: footprint) }
        lastChosen = nil
    }

    /// Threads whose next step from this state is known from an earlier execution, with a footprint
    /// that is its point's declaration in this one.
    private mutating func learnKnownSteps(_ decision: SchedulingDecision) {
        let state = prefix.fingerprint
        for (thread, point) in decision.pending.enumerated() {
            guard let point,
                let successor = successors[Transition(state: state, thread: names.name(thread))],
                successor.declaredAll
            else { continue }
            var footprint = point.footprint
            footprint.insert(.thread(thread))
            known[thread] = (successor.state - state, footprint)
        }
    }

    mutating func endExecution(_ result: ExecutionResult, tree: inout SearchTree<Mark>) {
        if lastChosen != nil, let footprint = result.footprints.last, result.footprints.count == result.steps.count {
            absorb(footprint)
        }
        ended.insert(prefix.fingerprint)
    }

    func annotate(_ report: inout ExplorationReport, tree: SearchTree<Mark>) {
        report.statesSearched = visits.count
        report.redundantSchedules = tree.redundantExecutions
    }
}

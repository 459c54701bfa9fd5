/// Exhaustive search over every schedule with at most `preemptionBound` preemptions, without
/// storing states: each execution replays a prefix of decisions, then takes the first choice
/// everywhere after it; backtracking moves the deepest decision with an untried choice on by one.
///
/// A *preemption* is switching away from a thread that could have gone on. Switching because the
/// running thread finished or waits for a lock is free. Bounding preemptions (Musuvathi and Qadeer,
/// CHESS) keeps the count polynomial while most real bugs need only one or two.
final class DepthFirstStrategy: SchedulingStrategy {
    private struct Decision {
        /// Choices in the order tried: the running thread first (no preemption), then the others.
        var options: [Int]
        var index: Int
        var preemptionsBefore: Int
        /// Whether the previous thread could go on, so that choosing another one is a preemption.
        var currentEnabled: Bool

        var preemptionsAfter: Int { preemptionsBefore + (index > 0 && currentEnabled ? 1 : 0) }
    }

    let preemptionBound: Int
    private var stack: [Decision] = []
    private var depth = 0
    /// Set when an execution did not see the choices its prefix recorded: the program is not
    /// deterministic under a fixed schedule, so counts would be wrong.
    private(set) var nondeterministic = false

    var warning: String? {
        nondeterministic
            ? "the program made different choices under the same schedule prefix; counts are not exact" : nil
    }

    init(preemptionBound: Int) {
        self.preemptionBound = preemptionBound
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
                return stack[depth].options[stack[depth].index]
            }
        }
        let before = stack.last?.preemptionsAfter ?? 0
        stack.append(Decision(options: options, index: 0, preemptionsBefore: before, currentEnabled: currentEnabled))
        return options[0]
    }

    /// Prepares the next schedule; false when every schedule within the bound has been run.
    func endExecution(_ result: ExecutionResult) -> Bool {
        if depth < stack.count { stack.removeSubrange(depth...) }
        while var decision = stack.popLast() {
            let next = decision.index + 1
            guard next < decision.options.count else { continue }
            let cost = decision.currentEnabled ? 1 : 0
            guard decision.preemptionsBefore + cost <= preemptionBound else { continue }
            decision.index = next
            stack.append(decision)
            return true
        }
        return false
    }
}

/// `.none`: every choice at every decision within the preemption bound.
struct NoReduction: ReductionPolicy {
    var reduction: ExplorationOptions.Reduction { .none }

    func open(_ decision: SchedulingDecision, options: [Int], preemptions: Int) {}

    func verdict(on option: Int, of branch: SearchTree<Void>.Branch, preemptions: Int) -> SearchTree<Void>.Verdict {
        .take
    }
}

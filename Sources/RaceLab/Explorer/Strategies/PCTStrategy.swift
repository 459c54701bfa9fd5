/// Probabilistic Concurrency Testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010).
///
/// Each execution gives the n threads random distinct priorities d … d+n−1 and picks d−1 random
/// *change points* among the k steps. The scheduler always runs the highest-priority thread that
/// can run; at the i-th change point it drops the running thread's priority to i, below every
/// initial one. A bug of depth d (d ordering constraints) is then found by each execution with
/// probability at least 1/(n·k^(d−1)), whatever the program.
///
/// A thread the program starts while it runs (a callback, a task) gets a random priority among the
/// initial ones when it first appears; n in the guarantee then counts it too (`threads` grows to
/// the most threads an execution had).
final class PCTStrategy: SchedulingStrategy {
    private(set) var threads: Int
    /// d: one more than the number of change points.
    let depth: Int
    /// k: the step count change points are drawn from; grows to the longest execution seen.
    private(set) var stepEstimate: Int
    private var random: SplitMix64
    /// By thread id. Initial threads get d … d+n−1; spawned ones a value in between, so that all
    /// stay distinct and above every change-point priority.
    private var priorities: [Double] = []
    private var changePoints: [Int: Int] = [:]
    private var longest = 0

    init(threads: Int, depth: Int, seed: UInt64, stepEstimate: Int) {
        self.threads = threads
        self.depth = max(1, depth)
        self.stepEstimate = max(1, stepEstimate)
        random = SplitMix64(seed: seed)
    }

    /// The lower bound on the probability that one execution finds a bug of depth `depth`.
    var guarantee: Double {
        1 / (Double(threads) * pow(Double(stepEstimate), Double(depth - 1)))
    }

    func beginExecution() {
        stepEstimate = max(stepEstimate, longest)
        var order = Array(0..<threads)
        order.shuffle(using: &random)
        priorities = Array(repeating: 0, count: threads)
        for (rank, thread) in order.enumerated() { priorities[thread] = Double(depth + rank) }
        changePoints = [:]
        var candidates = Array(0..<stepEstimate)
        candidates.shuffle(using: &random)
        for (index, step) in candidates.prefix(depth - 1).enumerated() { changePoints[step] = index + 1 }
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let (enabled, step) = (decision.enabled, decision.step)
        longest = max(longest, step + 1)
        while priorities.count <= enabled.max()! {
            // A spawned thread: strictly between two initial priorities, never equal to one.
            let slot = Double(random.next() % UInt64(threads)) + Double(random.next() % 1_000 + 1) / 1_001
            priorities.append(Double(depth) + slot)
            threads = max(threads, priorities.count)
        }
        var chosen = enabled.max { priorities[$0] < priorities[$1] }!
        if let lowered = changePoints[step] {
            priorities[chosen] = Double(lowered)
            chosen = enabled.max { priorities[$0] < priorities[$1] }!
        }
        return chosen
    }
}

extension PCTStrategy {
    func annotate(_ report: inout ExplorationReport) {
        report.pctGuarantee = guarantee
        report.pctSteps = stepEstimate
        report.pctThreads = threads
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= base }
    return result
}

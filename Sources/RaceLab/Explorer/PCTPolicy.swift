/// Probabilistic Concurrency Testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS 2010).
///
/// Each execution gives the n threads random distinct priorities d … d+n−1 and picks d−1 random
/// *change points* among the k steps. The scheduler always runs the highest-priority thread that
/// can run; at the i-th change point it drops the running thread's priority to i, below every
/// initial one. A bug of depth d (d ordering constraints) is then found by each execution with
/// probability at least 1/(n·k^(d−1)), whatever the program.
final class PCTPolicy: SchedulingPolicy {
    let threads: Int
    /// d: one more than the number of change points.
    let depth: Int
    /// k: the step count change points are drawn from; grows to the longest execution seen.
    private(set) var stepEstimate: Int
    private var random: SplitMix64
    private var priorities: [Int] = []
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
        for (rank, thread) in order.enumerated() { priorities[thread] = depth + rank }
        changePoints = [:]
        var candidates = Array(0..<stepEstimate)
        candidates.shuffle(using: &random)
        for (index, step) in candidates.prefix(depth - 1).enumerated() { changePoints[step] = index + 1 }
    }

    func choose(enabled: [Int], current: Int?, step: Int) -> Int {
        longest = max(longest, step + 1)
        var chosen = enabled.max { priorities[$0] < priorities[$1] }!
        if let lowered = changePoints[step] {
            priorities[chosen] = lowered
            chosen = enabled.max { priorities[$0] < priorities[$1] }!
        }
        return chosen
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= base }
    return result
}

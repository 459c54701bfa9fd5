/// At each scheduling point, a thread chosen uniformly among those that can run.
///
/// Cheap and unbiased per step, but weak on bugs that need one thread to run many steps in a row
/// while another waits (each extra step halves the chance); PCT is the better default.
final class RandomStrategy: SchedulingStrategy {
    private var random: SplitMix64

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
    }

    func choose(_ decision: SchedulingDecision) -> Int {
        let enabled = decision.enabled
        return enabled[Int(random.next() % UInt64(enabled.count))]
    }
}

import RaceLab
import Synchronization

/// The check and the set as one indivisible step: a compare-and-exchange from `false` to `true`.
///
/// Exactly one caller wins the exchange and runs `execute()`. Unlike `LockedOnce`, the losers do
/// not wait: they return at once, possibly before the winner has finished (or even started) the
/// work. Use it when "exactly once" is all you need, not "done by the time I return".
public final class AtomicOnce: Sendable {
    let didExecute = Atomic<Bool>(false)

    public init() {}

    /// Runs `execute` if this call is the first to flip the flag.
    public func run(_ execute: () -> Void) {
        Race.step("compare-exchange didExecute")
        let (exchanged, _) = didExecute.compareExchange(
            expected: false,
            desired: true,
            ordering: .acquiringAndReleasing
        )
        guard exchanged else { return }
        execute()
    }
}

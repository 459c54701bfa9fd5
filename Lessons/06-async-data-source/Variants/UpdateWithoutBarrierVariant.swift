import RaceLab

/// `update-without-barrier` (buggy): `state-object` with the article's last `update`, which is
/// enqueued with `queue.async` and no `.barrier`. Everything else is the fixed design, so the trial
/// is `state-object`'s, its data source made with `updatesAsBarrier: false`.
enum UpdateWithoutBarrierVariant {
    static func makeTrial() -> StateObjectVariant.Trial {
        StateObjectVariant.Trial(updatesAsBarrier: false)
    }

    static let variant = StateObjectVariant.Trial.variant(
        name: "update-without-barrier",
        kind: .buggy,
        summary: "state-object with the article's final update: queue.async without .barrier; updates run side "
            + "by side, read the same state, and one is lost; state is written during reads",
        makeTrial: makeTrial
    )
}

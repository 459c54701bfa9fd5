import RaceLab

/// `update-without-barrier` (buggy): `state-object` with the article's last `update`, which is
/// enqueued with `queue.async` and no `.barrier`. Everything else is the fixed design, so the trial
/// is `state-object`'s, its data source made with `updatesAsBarrier: false`.
enum UpdateWithoutBarrierVariant {
    static func makeTrial() -> StateObjectVariant.Trial {
        StateObjectVariant.Trial(updatesAsBarrier: false)
    }

    /// Updates that run side by side also write `state`, a class reference, at once: its reference
    /// count can be corrupted and the process can die of a signal (SIGSEGV has been seen in some runs
    /// of `racelab run 6 --variant update-without-barrier`). That crash is this bug too, so an
    /// isolated run counts it as reproduced.
    static let variant = StateObjectVariant.Trial.variant(
        name: "update-without-barrier",
        kind: .buggy,
        summary: "the state object with the article's last update: no .barrier",
        crashMeansReproduced: true,
        makeTrial: makeTrial
    )
}

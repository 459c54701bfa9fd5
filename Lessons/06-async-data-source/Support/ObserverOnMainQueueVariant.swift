import RaceLab

/// `observer-on-main-queue` (buggy): `specific-queue-observer` with the article's
/// `observerOnMainQueue(with:)`, which appends the new observer to the UI-queue observer's list and
/// tells it that observer's state on the caller's thread, while the UI queue delivers states and
/// iterates the same list. Everything else is the fixed design, so the trial is
/// `specific-queue-observer`'s, made with `addsObserversOnUIQueue: false`; that variant is the fix.
enum ObserverOnMainQueueVariant {
    static func makeTrial() -> SpecificQueueObserverVariant.Trial {
        SpecificQueueObserverVariant.Trial(addsObserversOnUIQueue: false)
    }

    /// The append races with the UI queue's iteration of the array and the read of the state with
    /// its replacement: data races on reference-counted storage, which can kill the process with a
    /// signal (SIGILL, SIGABRT or SIGSEGV have been seen in some runs of `racelab run 6 --variant
    /// observer-on-main-queue`). That crash is this bug too, so an isolated run counts it as
    /// reproduced.
    static let variant = SpecificQueueObserverVariant.Trial.variant(
        name: "observer-on-main-queue",
        kind: .buggy,
        summary: "observers added the article's way, from a thread other than main",
        crashMeansReproduced: true,
        makeTrial: makeTrial
    )
}

import RaceLab

/// Lesson 6: an asynchronous data source for a collection view. Public properties read one by one
/// show states that never existed; one immutable state replaced whole does not. The compromises that
/// let the UI read synchronously each keep some guarantees and give up others, measured side by side.
public enum AsyncDataSourceLesson {
    public static let lesson = Lesson(
        number: 6,
        slug: "async-data-source",
        title: "async data source: torn reads, state snapshots, observers",
        summary: "A collection's data source written to from its own queue and read by the UI. Public "
            + "properties read one by one show mixed states; an immutable State replaced whole does not; "
            + "each way of reading it synchronously is measured for what it keeps and what it costs.",
        workload: Workload(trials: 40, iterations: 400),
        variants: [
            measuredOnLinux(
                PublicPropertiesVariant.variant,
                explored: publicPropertiesExploration,
                tsan: .silent,
                compiler: .rejected,
                because:
                    "each property read is locked, so the torn reads are synchronized steps; the class as written is refused"
            ),
            measuredOnLinux(
                StateObjectVariant.variant,
                explored: stateObjectExploration,
                tsan: .silent,
                compiler: .rejected,
                because: "one immutable State replaced on a barrier; the compiler cannot see what the queue guards"
            ),
            measuredOnLinux(
                UpdateWithoutBarrierVariant.variant,
                explored: updateWithoutBarrierExploration,
                tsan: .silent,
                compiler: .rejected,
                because:
                    "measured: TSan silent in 40 trials although state is written beside reads (see the README); the class is refused as written"
            ),
            measuredOnLinux(
                ActorStateVariant.variant,
                explored: actorExploration,
                tsan: .silent,
                compiler: .accepted,
                because: "the state in an actor: isolated, which the compiler checks itself"
            ),
            measuredOnLinux(
                AtomicPropertyVariant.variant,
                explored: atomicPropertyExploration,
                tsan: .silent,
                compiler: .rejected,
                because:
                    "each read is locked and reading twice is the bug: no race for TSan; the lock-guarded var is refused"
            ),
            measuredOnLinux(
                SyncOperationsVariant.variant,
                explored: syncOperationsExploration,
                tsan: .silent,
                compiler: .rejected,
                because: "reads wait on the data source's own queue; the compiler cannot see what the queue guards"
            ),
            measuredOnLinux(
                SafeReadingQueueVariant.variant,
                explored: safeReadingQueueExploration,
                tsan: .silent,
                compiler: .rejected,
                because:
                    "writes wait for the reading queue; a queue precondition is a run-time check the compiler cannot use"
            ),
            measuredOnLinux(
                SpecificQueueObserverVariant.variant,
                explored: specificQueueObserverExploration,
                tsan: .silent,
                compiler: .rejected,
                because: "the observer's var is set only on the UI queue, which the compiler does not know about"
            ),
            measuredOnLinux(
                ObserverOnMainQueueVariant.variant,
                explored: observerOnMainQueueExploration,
                tsan: .reported,
                compiler: .rejected,
                because:
                    "observers appended on the caller's thread while the UI queue iterates them: a data race; the class is refused as written"
            ),
            measuredOnLinux(
                AtomicObserverVariant.variant,
                explored: atomicObserverExploration,
                tsan: .silent,
                compiler: .rejected,
                because: "the latest state behind a lock; the compiler cannot tie the lock to the var"
            ),
            measuredOnLinux(
                MutableInsideStateVariant.variant,
                explored: mutableInsideStateExploration,
                tsan: .reported,
                compiler: .rejected,
                because: "a class with a var shared inside an immutable State: a real data race both tools catch"
            ),
        ],
        countMeanings: [
            "lost writes": "updates missing from the data source's final version",
            "inconsistencies":
                "UI reads of a state no writer stored (mixed state, torn cell) or of an older state "
                + "after a newer one (older after newer), and observers told a state twice, out of "
                + "order, skipped, or not the last one",
        ],
    )

    /// `variant` explored by `exploration`, with what ThreadSanitizer and the Swift 6 compiler make of
    /// it on Linux and why (see `Variant.expecting(tsan:compiler:on:because:)`).
    static func measuredOnLinux(
        _ variant: Variant,
        explored exploration: Exploration,
        tsan: ToolExpectation.TSan,
        compiler: ToolExpectation.Compiler,
        because reason: String
    ) -> Variant {
        variant.exploring(exploration).expecting(tsan: tsan, compiler: compiler, on: .linux, because: reason)
    }
}

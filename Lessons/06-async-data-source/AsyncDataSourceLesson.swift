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
            PublicPropertiesVariant.variant.exploring(publicPropertiesExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because:
                    "each property read is locked, so the torn reads are synchronized steps; the class as written is refused"
            ),
            StateObjectVariant.variant.exploring(stateObjectExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because: "one immutable State replaced on a barrier; the compiler cannot see what the queue guards"
            ),
            UpdateWithoutBarrierVariant.variant.exploring(updateWithoutBarrierExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because:
                    "measured: TSan silent in 40 trials although state is written beside reads (see the README); the class is refused as written"
            ),
            ActorStateVariant.variant.exploring(actorExploration).expecting(
                tsan: .silent,
                compiler: .accepted,
                on: .linux,
                because: "the state in an actor: isolated, which the compiler checks itself"
            ),
            AtomicPropertyVariant.variant.exploring(atomicPropertyExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because:
                    "each read is locked and reading twice is the bug: no race for TSan; the lock-guarded var is refused"
            ),
            SyncOperationsVariant.variant.exploring(syncOperationsExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because: "reads wait on the data source's own queue; the compiler cannot see what the queue guards"
            ),
            SafeReadingQueueVariant.variant.exploring(safeReadingQueueExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because:
                    "writes wait for the reading queue; a queue precondition is a run-time check the compiler cannot use"
            ),
            SpecificQueueObserverVariant.variant.exploring(specificQueueObserverExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because: "the observer's var is set only on the UI queue, which the compiler does not know about"
            ),
            ObserverOnMainQueueVariant.variant.exploring(observerOnMainQueueExploration).expecting(
                tsan: .reported,
                compiler: .rejected,
                on: .linux,
                because:
                    "observers appended on the caller's thread while the UI queue iterates them: a data race; the class is refused as written"
            ),
            AtomicObserverVariant.variant.exploring(atomicObserverExploration).expecting(
                tsan: .silent,
                compiler: .rejected,
                on: .linux,
                because: "the latest state behind a lock; the compiler cannot tie the lock to the var"
            ),
            MutableInsideStateVariant.variant.exploring(mutableInsideStateExploration).expecting(
                tsan: .reported,
                compiler: .rejected,
                on: .linux,
                because: "a class with a var shared inside an immutable State: a real data race both tools catch"
            ),
        ]
    )
}

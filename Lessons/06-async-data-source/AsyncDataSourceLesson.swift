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
            PublicPropertiesVariant.variant.exploring(publicPropertiesExploration),
            StateObjectVariant.variant.exploring(stateObjectExploration),
            ActorStateVariant.variant.exploring(actorExploration),
            AtomicPropertyVariant.variant.exploring(atomicPropertyExploration),
            SyncOperationsVariant.variant.exploring(syncOperationsExploration),
            SafeReadingQueueVariant.variant.exploring(safeReadingQueueExploration),
            SpecificQueueObserverVariant.variant.exploring(specificQueueObserverExploration),
            AtomicObserverVariant.variant.exploring(atomicObserverExploration),
            MutableInsideStateVariant.variant.exploring(mutableInsideStateExploration),
        ]
    )
}

import Foundation
import RaceLab

/// Lesson 5: a store of files on a concurrent queue is safe when writes are barriers *and* replace
/// files atomically. Without the barrier, two writes of one file share its staging file and a torn
/// file gets renamed into place; writing in place, a reader outside the queue (another process, or
/// the app after a crash) sees files half written.
public enum PersistentStoreLesson {
    public static let lesson = Lesson(
        number: 5,
        slug: "persistent-store",
        title: "persistent data store: barrier writes and atomic files",
        summary: "A folder of data files on a concurrent queue. Drop the barrier and concurrent writes of one file "
            + "tear it; write in place and readers outside the queue read half-written files.",
        workload: Workload(trials: 20, iterations: 400),
        variants: [noBarrier, nonAtomicWrite, fixed]
    )

    static let noBarrier = documentsVariant(
        name: "no-barrier",
        kind: .buggy,
        discipline: .noBarrier,
        summary: "writes run without the barrier: two writes of one file overlap in its staging file"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "the store holds only Sendable lets and the shared state is files: invisible to both tools"
    )

    static let nonAtomicWrite = documentsVariant(
        name: "non-atomic-write",
        kind: .buggy,
        discipline: .nonAtomicWrite,
        summary: "writes truncate and refill the data file in place: readers outside the queue see it half written"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "a file read half written is not a memory race; the store holds only Sendable lets"
    )

    static let fixed = documentsVariant(
        name: "fixed",
        kind: .fixed,
        discipline: .fixed,
        summary: "barrier writes to a staging file, renamed over the data file when complete"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "barrier writes renamed into place; the compiler accepts it exactly like both bugs"
    )

    private static func documentsVariant(
        name: String,
        kind: VariantKind,
        discipline: WriteDiscipline,
        summary: String
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            makeState: { try DocumentTrial(discipline: discipline) },
            operation: { trial, iteration in trial.perform(iteration) },
            check: { trial, _ in
                await trial.finished()
                return trial.verify()
            },
            tearDown: { trial in trial.remove() }
        )
        .exploring(storeThenReadEach(discipline))
    }
}

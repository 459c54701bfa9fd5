import Foundation
import RaceLab

/// Lesson 5: a store of files on a concurrent queue is safe when writes are barriers *and* replace
/// files atomically. Without the barrier (this lesson's store otherwise unchanged), writes of one
/// file run side by side and the older one can land last; add a staging file whose name all writes
/// of a file share and a torn file gets renamed into place; writing in place, a reader outside the
/// queue (another process, or the app after a crash) sees files half written. Encode inside the
/// barrier, as the article does, and the store stays correct while every load made meanwhile waits.
public enum PersistentStoreLesson {
    public static let lesson = Lesson(
        number: 5,
        slug: "persistent-store",
        title: "persistent data store: barrier writes and atomic files",
        summary: "A folder of data files on a concurrent queue. Drop the barrier and stores of one file finish out "
            + "of order (an older one wins); share one staging name and they tear it; write in place and readers "
            + "outside the queue read half-written files.",
        workload: Workload(trials: 20, iterations: 400),
        variants: [noBarrier, twoStores, sharedStagingName, nonAtomicWrite, encodeInBarrier, fixed],
        countMeanings: [
            "lost writes":
                "stores that reported success whose version their document's file no longer holds at the end "
                + "(an older one replaced it), and stores that failed",
            "inconsistencies":
                "times a file went back to an older version (a store found one in place as it completed, "
                + "or an outside read saw one after a newer), reads (a load's or the outside reader's) that "
                + "found a torn file, another document or none, files left torn or holding a failed store",
        ]
    )

    static let noBarrier = documentsVariant(
        name: "no-barrier",
        kind: .buggy,
        discipline: .noBarrier,
        summary: "the article's store without .barrier: writes of one file overlap, older can win"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "the store holds only Sendable lets and the shared state is files: invisible to both tools"
    )

    static let twoStores = documentsVariant(
        name: "two-stores",
        kind: .buggy,
        discipline: .unclaimedFolder,
        stores: 2,
        summary: "the article's store, barriers and all, opened twice on one folder: two queues"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "two queues ordering writes to one set of files is not a memory race; the store holds Sendable lets"
    )

    static let sharedStagingName = documentsVariant(
        name: "shared-staging-name",
        kind: .buggy,
        discipline: .sharedStagingName,
        summary: "no barrier, one staging file per document: writes tear it"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "two writers sharing a file is not a memory race; the store holds only Sendable lets"
    )

    static let nonAtomicWrite = documentsVariant(
        name: "non-atomic-write",
        kind: .buggy,
        discipline: .nonAtomicWrite,
        summary: "writes refill the file in place: outside readers see it half written"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "a file read half written is not a memory race; the store holds only Sendable lets"
    )

    static let encodeInBarrier = documentsVariant(
        name: "encode-in-barrier",
        kind: .fixed,
        discipline: .encodeInBarrier,
        slowEncodes: true,
        summary: "correct but costly: a simulated 2 ms encode inside the barrier stalls every load"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "a load waiting behind a barrier is correct code; the store holds only Sendable lets"
    )

    static let fixed = documentsVariant(
        name: "fixed",
        kind: .fixed,
        discipline: .fixed,
        slowEncodes: true,
        summary: "encode first, then a barrier write staged in a file of its own and renamed into place"
    )
    .expecting(
        tsan: .silent,
        compiler: .accepted,
        on: .linux,
        because: "barrier writes renamed into place; the compiler accepts it exactly like both bugs"
    )

    static func documentsVariant(
        name: String,
        kind: VariantKind,
        discipline: WriteDiscipline,
        stores: Int = 1,
        slowEncodes: Bool = false,
        summary: String
    ) -> Variant {
        Variant(
            name: name,
            kind: kind,
            summary: summary,
            // Slow encodes run one after another: fewer stores keep the run to about a second.
            workload: slowEncodes ? Workload(trials: 10, iterations: 100) : nil,
            makeState: { try DocumentTrial(discipline: discipline, stores: stores, slowEncodes: slowEncodes) },
            operation: { trial, iteration in trial.perform(iteration) },
            check: { trial, _ in
                await trial.finished()
                return trial.verify()
            },
            tearDown: { trial in trial.remove() }
        )
        .exploring(storeThenReadEach(discipline, stores: stores))
    }
}

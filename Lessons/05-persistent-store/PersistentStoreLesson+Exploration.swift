import RaceLab

/// What `racelab explore 5` runs: two (or `--threads`) logical threads, each storing a new version of
/// one document through the store and then reading the document's file directly, as the lesson's
/// `OutsideReader` does (with its own `read(document:)`), on the trial `racelab run` uses.
///
/// The store's queue is a `RaceQueue`, so each store is a logical thread of its own (named
/// `documents item` or `documents barrier`; with two stores, `store A barrier` and `store B barrier`,
/// one queue each), whose first step says what it does (`encode, stage chunk 1`, or in place
/// `encode, empty file, chunk 1`; the fixed store encodes in the calling thread's `storeData` step,
/// so its barrier's first step is `stage chunk 1`), then the chunk
/// windows (`write staged chunk` and `finish staged file`, or `write chunk in place` and
/// `finish file in place`) and `rename staged file`; a barrier holds back the other items as
/// libdispatch would. The steps `storeData` and `outside read` let the explorer place the submissions and the
/// direct reads among them. A read is one `read` call, so its result depends only on where it falls.
///
/// Not under the explorer's control: the completions, which the store hands to a real
/// `DispatchQueue` (its API takes one). They only record results under the trial's lock, which no
/// logical thread reads, so their timing cannot change the outcome; the invariant waits for them
/// after every thread finished, when all have been submitted.
///
/// Between steps it shows the version document-0's file holds, its staging files by name (one
/// shared name, or a name of its own for each store) and the versions the stores encoded, so that
/// a store overwritten by an older version, or two stores writing one staging file, can be seen.
extension PersistentStoreLesson {
    /// Each thread stores document 0 once, then reads its file; afterwards no read may have been
    /// torn and every store must have been applied, in order. With two `stores`, thread `t` stores
    /// through store `t % 2`.
    static func storeThenReadEach(_ discipline: WriteDiscipline, stores: Int = 1) -> Exploration {
        Exploration(
            summary:
                "each thread stores a new version of document-0, then reads its file as another process would "
                + "(outside read: before any store it finds v0, mid-write a torn file); invariant: no torn read "
                + "or file, every store applied",
            makeState: { try DocumentTrial(discipline: discipline, stores: stores, outsideReaderThread: false) },
            thread: { trial, thread in
                Race.step("storeData")
                trial.storeNewVersion(of: 0, through: trial.stores[thread % trial.stores.count])
                Race.step("outside read")
                trial.readOutside(document: 0)
            },
            invariant: { trial, _ in
                trial.finishedBlocking()
                let (observation, details) = trial.verifyInDetail()
                return observation.isAnomalous || observation.observed != observation.expected ? details : nil
            },
            tearDown: { trial in trial.remove() },
            describeState: { trial in trial.describe(document: 0) }
        ).markingEveryWindow()
    }
}

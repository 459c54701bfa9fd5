/// The rules that make the store's writes safe, each of which a buggy variant drops.
///
/// - `barrier`: a write runs as a barrier work item, alone on the store's queue. Reads and other
///   writes of the same store wait for it, and writes run one at a time in the order they were
///   submitted.
/// - `replaceAtomically`: a write goes to a staging file and is renamed over the data file once
///   complete, so whoever opens the data file (this store, another process, the store after a crash)
///   finds the old contents or the new, never a part.
/// - `claimsFolder`: the store takes its folder for itself (`FolderLock`), so that a second store
///   on the same folder fails to open. Off, as in the article, two stores on one folder each order
///   their own writes on their own queue, and nothing orders one store's writes against the other's.
/// - `uniqueStaging`: each write stages into a file of its own (the identifier plus a UUID), as
///   Foundation's `Data.write(to:options: .atomic)` does with its temporary file. Off, every write of
///   an identifier stages into one file named after it, which is safe only while the barrier keeps
///   two such writes from overlapping.
/// - `encodesBeforeWrite`: the data provider (the encode: an image to JPEG data, a model to JSON)
///   runs on the caller's thread before the write is submitted, and only the finished data goes
///   into the barrier, so loads run while a store encodes; the caller waits for its own encode, and
///   every operation is still submitted in the order it was made. Off, as in the article, the
///   provider runs inside the write: under a barrier, every load made meanwhile waits for the
///   encode. Either way is correct; off costs every load that waits.
public struct WriteDiscipline: Sendable, Equatable {
    public var barrier: Bool
    public var replaceAtomically: Bool
    public var uniqueStaging: Bool
    public var claimsFolder: Bool
    public var encodesBeforeWrite: Bool

    public init(
        barrier: Bool,
        replaceAtomically: Bool,
        uniqueStaging: Bool = true,
        claimsFolder: Bool = true,
        encodesBeforeWrite: Bool = false
    ) {
        self.barrier = barrier
        self.replaceAtomically = replaceAtomically
        self.uniqueStaging = uniqueStaging
        self.claimsFolder = claimsFolder
        self.encodesBeforeWrite = encodesBeforeWrite
    }

    /// Barrier writes, each staged in a file of its own and renamed into place, the data encoded
    /// by the caller before the write is queued: loads never wait for an encode, and every
    /// operation is applied in the order it was made.
    public static let fixed = WriteDiscipline(barrier: true, replaceAtomically: true, encodesBeforeWrite: true)
    /// The article's store as written: barrier writes renamed into place, the provider run inside
    /// the barrier. Correct, and every load made during an encode waits for it.
    public static let encodeInBarrier = WriteDiscipline(barrier: true, replaceAtomically: true)
    /// The article's store minus its barrier (buggy): writes stay atomic and stage in files of their
    /// own, so no file is torn, but writes of one identifier run side by side and finish in any
    /// order: an older store can land last and win.
    public static let noBarrier = WriteDiscipline(barrier: false, replaceAtomically: true)
    /// No barrier, and every write of an identifier stages into the same file named after it
    /// (buggy): a hand-rolled "atomic" write whose temporary name is shared, so one write truncates
    /// another's staging file and a torn file is renamed into place.
    public static let sharedStagingName = WriteDiscipline(
        barrier: false,
        replaceAtomically: true,
        uniqueStaging: false
    )
    /// The article's store as written, barrier and atomic writes included, with no claim on its
    /// folder (buggy when two stores open one folder): each store's barrier orders only its own queue.
    public static let unclaimedFolder = WriteDiscipline(barrier: true, replaceAtomically: true, claimsFolder: false)
    /// Writes overwrite the data file in place (buggy).
    public static let nonAtomicWrite = WriteDiscipline(barrier: true, replaceAtomically: false)
}

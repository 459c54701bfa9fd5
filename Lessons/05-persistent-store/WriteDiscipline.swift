/// The two rules that make the store's writes safe, each of which a buggy variant drops.
///
/// - `barrier`: a write runs as a barrier work item, alone on the store's queue. Reads and other
///   writes of the same store wait for it.
/// - `replaceAtomically`: a write goes to a staging file and is renamed over the data file once
///   complete, so whoever opens the data file (this store, another process, the store after a crash)
///   finds the old contents or the new, never a part.
///
/// The staging file is named after the identifier, so two writes of one identifier at the same time
/// would share it: that is safe only because the barrier never lets them overlap.
public struct WriteDiscipline: Sendable, Equatable {
    public var barrier: Bool
    public var replaceAtomically: Bool

    public init(barrier: Bool, replaceAtomically: Bool) {
        self.barrier = barrier
        self.replaceAtomically = replaceAtomically
    }

    /// Both rules: the article's store.
    public static let fixed = WriteDiscipline(barrier: true, replaceAtomically: true)
    /// Writes run alongside reads and other writes (buggy).
    public static let noBarrier = WriteDiscipline(barrier: false, replaceAtomically: true)
    /// Writes overwrite the data file in place (buggy).
    public static let nonAtomicWrite = WriteDiscipline(barrier: true, replaceAtomically: false)
}

import Synchronization

/// The work that must happen exactly once: the article's `execute()`, which prints; this one counts.
///
/// The count is an atomic so that counting can never lose an execution itself: the flag in front of
/// `execute()` is what each variant puts to the test, not this counter.
public final class ImportantWork: Sendable {
    private let count = Atomic<Int>(0)

    public init() {}

    /// Does the important thing once more. Kept out of line so that the optimizer cannot merge it
    /// into the caller and move the flag's store around it.
    @inline(never)
    public func execute() {
        count.wrappingAdd(1, ordering: .relaxed)
    }

    /// How many times `execute()` ran. Read it after every caller has returned.
    public var executions: Int {
        count.load(ordering: .acquiring)
    }
}

import Foundation

/// An observer that checks what it is told: states in order, each once, none skipped, ending with
/// the data source's last state.
///
/// Every update in this lesson adds one to the version, so a correct stream of notifications is
/// `first, first + 1, …, last`. An older or repeated version breaks "never an older state after a
/// newer one" (and "the current state exactly once" for an observer added with notify-on-add); a
/// gap is a notification lost. The observer keeps its own books behind a lock so that a data source
/// that calls it from two threads at once is caught, not hidden by a race in the checker.
public final class OrderCheckingObserver: StateObserver, @unchecked Sendable {
    public typealias State = CollectionState

    /// Whether the observer was added with notify-on-add, and so must be told at least one state.
    public let expectsCurrentState: Bool

    private let lock = NSLock()
    private var versions: [Int] = []
    private var problems: [Inconsistency] = []

    public init(expectsCurrentState: Bool) {
        self.expectsCurrentState = expectsCurrentState
    }

    public func dataSourceChanged(_ newState: CollectionState) {
        lock.lock()
        defer { lock.unlock() }
        let version = newState.version
        if let last = versions.last, version != last + 1 {
            let what =
                version <= last
                ? (version == last ? "told v\(version) twice" : "told v\(version) after v\(last)")
                : "told v\(version) right after v\(last)"
            problems.append(Inconsistency(.observerOrder, what))
        }
        versions.append(version)
    }

    /// The versions told so far, in the order they arrived.
    public var toldVersions: [Int] {
        lock.lock()
        defer { lock.unlock() }
        return versions
    }

    /// What went wrong, once the data source is idle and ended at `finalVersion`.
    public func problems(finalVersion: Int) -> [Inconsistency] {
        lock.lock()
        defer { lock.unlock() }
        var found = problems
        if let last = versions.last {
            if last != finalVersion {
                found.append(
                    Inconsistency(.observerOrder, "last told v\(last), the data source ended at v\(finalVersion)")
                )
            }
        } else if expectsCurrentState {
            found.append(Inconsistency(.observerOrder, "added with notify-on-add, never told any state"))
        }
        return found
    }
}

/// The observers added during one trial, kept for the check.
final class ObserverRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [OrderCheckingObserver] = []

    /// A new observer, remembered for `problems(finalVersion:)`.
    func make(expectsCurrentState: Bool) -> OrderCheckingObserver {
        let observer = OrderCheckingObserver(expectsCurrentState: expectsCurrentState)
        lock.lock()
        defer { lock.unlock() }
        observers.append(observer)
        return observer
    }

    /// What each observer has been told, oldest observer first: `v1, v2 | v0, v1, v1`. No lock here
    /// is held across a scheduling point, so the explorer's state lines can read it between steps.
    var toldVersions: String {
        lock.lock()
        let all = observers
        lock.unlock()
        let told = all.map { observer in
            let versions = observer.toldVersions
            return versions.isEmpty ? "nothing" : versions.map { "v\($0)" }.joined(separator: ", ")
        }
        return told.joined(separator: " | ")
    }

    /// What each observer has been told, oldest first, labelled: the first observer (added before
    /// the threads start) is `old`, any later one `new`, as in
    /// `old observer told v1; new observer told v1, v1`. Before a later one is added: `no new
    /// observer yet`.
    var toldVersionsLabelled: String {
        lock.lock()
        let all = observers
        lock.unlock()
        let told = all.enumerated().map { index, observer in
            let versions = observer.toldVersions
            let list = versions.isEmpty ? "nothing" : versions.map { "v\($0)" }.joined(separator: ", ")
            return "\(index == 0 ? "old" : "new") observer told \(list)"
        }
        return (told + (all.count < 2 ? ["no new observer yet"] : [])).joined(separator: "; ")
    }

    func problems(finalVersion: Int) -> [Inconsistency] {
        lock.lock()
        let all = observers
        lock.unlock()
        return all.flatMap { $0.problems(finalVersion: finalVersion) }
    }
}

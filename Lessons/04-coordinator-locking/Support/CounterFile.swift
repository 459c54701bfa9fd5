import Foundation
import RaceLab

/// One trial's counter file, in a folder of its own under the process's scratch folder, and the
/// increments every variant performs on it.
///
/// By default every increment goes through a *new* `ObjectStorage` instance, as code using the type
/// does: the instances share nothing but the file and whatever the coordinator shares. With
/// `oneInstance`, every increment goes through one storage made at the start, the shape of the
/// article's own test (one `objectStorage`, hammered by `concurrentPerform`).
final class CounterFile: Sendable {
    let folder: URL
    let url: URL
    private let makeCoordinator: @Sendable () -> any FileAccessCoordinator
    /// The writing claims of every storage of the trial, as their coordinators granted them.
    let meter = ClaimMeter()
    /// The one storage every increment uses, when the trial has one.
    private let sharedStorage: ObjectStorage<Counter>?
    /// What each increment read, until it saved: kept only when the explorer shows it.
    let copies: CounterCopies?

    /// - Parameters:
    ///   - coordinator: makes the coordinator of each new storage instance (of the one, with
    ///     `oneInstance`).
    ///   - oneInstance: every increment through one storage instead of a new one each time.
    ///   - showingCopies: keep what each increment read until it saved (`copies`), for the explorer.
    init(
        coordinator: @escaping @Sendable () -> any FileAccessCoordinator,
        oneInstance: Bool = false,
        showingCopies: Bool = false
    ) throws {
        folder = try ScratchSpace.makeFolder(label: "coordinator-locking")
        url = folder.appendingPathComponent("counter.json")
        let meter = meter
        let copies = showingCopies ? CounterCopies() : nil
        self.copies = copies
        makeCoordinator = { MeteredCoordinator(base: coordinator(), meter: meter, copies: copies) }
        sharedStorage = oneInstance ? ObjectStorage<Counter>(url: url, coordinator: makeCoordinator()) : nil
    }

    /// Adds one to the stored counter through a fresh storage instance, or through the one.
    ///
    /// - Parameter thread: the explorer's thread index, under which `copies` keeps what it read.
    func increment(thread: Int? = nil) throws {
        let storage = sharedStorage ?? ObjectStorage<Counter>(url: url, coordinator: makeCoordinator())
        guard let copies, let thread else {
            return try storage.mutatingObject(defaultValue: Counter()) { $0.value += 1 }
        }
        try CounterCopies.$thread.withValue(thread) {
            try storage.mutatingObject(defaultValue: Counter()) { counter in
                copies.read(counter.value, by: thread)
                counter.value += 1
            }
        }
    }

    /// The file's value now, in one line, read directly: no claim, so it never waits for a lock
    /// that a thread paused by the explorer holds.
    func describeFile() -> String {
        do {
            guard let counter = try ObjectStorage<Counter>(url: url).fetchObject() else {
                return "no counter file yet (reads as 0)"
            }
            return "counter file holds \(counter.value)"
        } catch {
            return "counter file unreadable"
        }
    }

    /// The counter's value once the trial is over (0 when it was never written).
    func finalValue() throws -> Int {
        try ObjectStorage<Counter>(url: url).fetchObject()?.value ?? 0
    }

    func remove() {
        ScratchSpace.remove(folder)
    }
}

/// What each explored increment read, from its read until its save: the value it will write back
/// is that plus one, whatever another thread saved in between. Only the explorer keeps them.
final class CounterCopies: @unchecked Sendable {
    /// The explorer's index of the thread running an increment, so that the claim that saves can
    /// tell whose copy it wrote.
    @TaskLocal static var thread: Int?

    private let lock = NSLock()
    private var pending: [(thread: Int, read: Int)] = []

    /// Thread `thread` read `value` under its claim.
    func read(_ value: Int, by thread: Int) {
        lock.withLock { pending.append((thread, value)) }
    }

    /// The claim of the increment running on this thread saved (or gave up): its copy is gone.
    func saved() {
        guard let thread = Self.thread else { return }
        lock.withLock { pending.removeAll { $0.thread == thread } }
    }

    /// The copies not yet saved, in the order they were read.
    var inFlight: [(thread: Int, read: Int)] {
        lock.withLock { pending }
    }
}

import Foundation
import RaceLab

/// A folder of data files, each named by an identifier, written and read asynchronously on a
/// concurrent queue: the article's `PersistentDataStore`.
///
/// Reads run concurrently with each other. Writes (stores and removals) run as barrier work items,
/// alone on the queue, and replace files atomically: a staging file renamed over the data file. A
/// store's data is encoded on the caller's thread before its write is submitted. With both rules
/// (`WriteDiscipline.fixed`), every load sees a whole file, operations on one store are applied in
/// the order they were made (a load made after a store returned sees it), and a process killed in
/// the middle of a store leaves the old file or the new one, never a mix.
///
/// Completions run on the queue the caller chose; `async` versions are in `PersistentDataStore+Async`.
///
/// Identifiers become file names (in NFC) and are checked first (`InvalidIdentifier`). Every file
/// operation is made relative to the folder's descriptor (`StoreDirectory`) and none follows a
/// link: nothing outside the folder is ever read, written or removed, and no symbolic link inside
/// it is followed. A store whose `.staging` or `.lock` is a link does not open.
///
/// One store manages one folder: a second store on the same folder, in any process, fails with
/// `StoreError.folderInUse` (other processes may still read the files: they are always whole).
/// The claim lasts until the store is released *and* its last operation has ended: a completion
/// runs on its own queue and may run a moment before the operation that delivered it lets go of the
/// store, so a store reopened from inside the old one's last completion can still find it claimed.
/// A child process started meanwhile shares the claim's open file description until its `exec`.
public final class PersistentDataStore: Sendable {
    public typealias Identifier = String

    /// The store's name, which is its folder's name.
    public let name: String
    /// The folder holding the data files.
    public let folder: URL
    /// The rules writes follow; `.fixed` except in the lesson's buggy variants.
    public let discipline: WriteDiscipline

    /// The staging folder, `<folder>/.staging`.
    let staging: URL
    /// The folder and its staging folder, opened once: every file operation goes through them.
    let directory: StoreDirectory
    let stagingDirectory: StoreDirectory
    private let completionQueue: DispatchQueue
    /// A `RaceQueue`, so that the schedule explorer sees the work items and models the barrier.
    private let queue: RaceQueue
    /// The store's claim on its folder; nil when its discipline does not claim it (a buggy variant).
    private let lock: FolderLock?

    /// Opens (creating it if needed) the store named `name` in `parent`, which must exist: the store
    /// creates nothing outside its own folder.
    ///
    /// Staging files a crashed writer left behind are removed: they were never visible as data.
    ///
    /// - Parameters:
    ///   - name: the folder's name; the same rules as identifiers apply (it is stored in NFC).
    ///   - completionQueue: where completion handlers run. There is no main thread to default to.
    ///   - discipline: `.fixed` unless you are reproducing the lesson's bugs.
    ///   - instance: names this store's queues in schedules (`store A barrier`) when more than one
    ///     store is open at once; nil names them after the folder (`documents barrier`).
    /// - Throws: `InvalidIdentifier` for a bad name, `StoreError.folderInUse` when another store has
    ///   the folder, `StoreError.unexpectedEntry` when the folder, its `.staging` folder or its
    ///   `.lock` file is a symbolic link (or not a folder, not a file), `StoreError.system` when a
    ///   folder cannot be made (`parent` does not exist, say).
    public init(
        name: String,
        in parent: URL,
        completionQueue: DispatchQueue,
        discipline: WriteDiscipline = .fixed,
        instance: String? = nil
    ) throws {
        self.name = try InvalidIdentifier.fileName(for: name)
        self.discipline = discipline
        self.completionQueue = completionQueue
        folder = parent.appendingPathComponent(self.name, isDirectory: true)
        staging = folder.appendingPathComponent(".staging", isDirectory: true)
        directory = try StoreDirectory.open(folder.path)
        lock = discipline.claimsFolder ? try FolderLock(in: directory) : nil
        stagingDirectory = try directory.subfolder(".staging")
        // Schedules name a queue by its label's last dot-separated part.
        let label = "racelab.persistent-data-store.\(self.name)" + (instance.map { ".\($0)" } ?? "")
        queue = RaceQueue(label: label, attributes: .concurrent)
        for leftover in try stagingDirectory.names() {
            _ = try? stagingDirectory.remove(leftover)
        }
    }

    /// The path of the data file of an identifier, for readers outside the store.
    func path(of identifier: Identifier) -> String {
        directory.path(of: identifier.precomposedStringWithCanonicalMapping)
    }

    /// Runs `work` on the store's queue: as a barrier when it writes (under the fixed discipline),
    /// concurrently when it reads.
    ///
    /// `RaceQueue` carries the caller's race-window hook into the work item, so that the runner's
    /// noise and a test's forced interleavings reach the windows inside file operations.
    /// `firstStep` names, in a schedule, what the item does before its first window.
    func submit(writing: Bool, firstStep: String? = nil, _ work: @escaping @Sendable () -> Void) {
        // hazard (no-barrier): without .barrier a write runs alongside loads and other writes of the
        // same identifier; they finish in any order, so an older store can overwrite a newer one
        // (and writes that share a staging name tear it).
        let flags: DispatchWorkItemFlags = writing && discipline.barrier ? .barrier : []
        queue.async(flags: flags, firstStep: firstStep, execute: work)
    }

    /// The file name `identifier` stands for; nil when it is not a valid name, after handing
    /// `invalid(error)` to `completion` on the completion queue.
    func fileName<Outcome: Sendable>(
        for identifier: Identifier,
        orDeliver invalid: (InvalidIdentifier) -> Outcome,
        to completion: @escaping @Sendable (Outcome) -> Void
    ) -> String? {
        do {
            return try InvalidIdentifier.fileName(for: identifier)
        } catch {
            deliver(invalid(error), to: completion)
            return nil
        }
    }

    /// Hands `result` to `completion` on the completion queue.
    func deliver<Outcome: Sendable>(_ result: Outcome, to completion: @escaping @Sendable (Outcome) -> Void) {
        completionQueue.async { completion(result) }
    }
}

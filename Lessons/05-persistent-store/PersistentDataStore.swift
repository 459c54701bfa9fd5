import Foundation
import RaceLab

/// A folder of data files, each named by an identifier, written and read asynchronously on a
/// concurrent queue: the article's `PersistentDataStore`.
///
/// Reads run concurrently with each other. Writes (stores and removals) run as barrier work items,
/// alone on the queue, and replace files atomically: a staging file renamed over the data file. With
/// both rules (`WriteDiscipline.fixed`), every load sees a whole file, stores to one identifier are
/// applied in the order they were made, and a process killed in the middle of a store leaves the old
/// file or the new one, never a mix.
///
/// Completions run on the queue the caller chose; `async` versions are in `PersistentDataStore+Async`.
///
/// Identifiers become file names and are checked first (`InvalidIdentifier`): nothing outside the
/// folder is ever read, written or removed, and no symbolic link inside it is followed.
///
/// One store manages one folder: a second store on the same folder, in any process, fails with
/// `StoreError.folderInUse` (other processes may still read the files: they are always whole).
public final class PersistentDataStore: Sendable {
    public typealias Identifier = String

    /// The store's name, which is its folder's name.
    public let name: String
    /// The folder holding the data files.
    public let folder: URL
    /// The rules writes follow; `.fixed` except in the lesson's buggy variants.
    public let discipline: WriteDiscipline

    let staging: URL
    private let completionQueue: DispatchQueue
    /// A `RaceQueue`, so that the schedule explorer sees the work items and models the barrier.
    private let queue: RaceQueue
    private let lock: FolderLock

    /// Opens (creating it if needed) the store named `name` in `parent`.
    ///
    /// Staging files a crashed writer left behind are removed: they were never visible as data.
    ///
    /// - Parameters:
    ///   - name: the folder's name; the same rules as identifiers apply.
    ///   - completionQueue: where completion handlers run. There is no main thread to default to.
    ///   - discipline: `.fixed` unless you are reproducing the lesson's bugs.
    /// - Throws: `InvalidIdentifier` for a bad name, `StoreError.folderInUse` when another store has
    ///   the folder, `StoreError.system` when a folder cannot be made.
    public init(
        name: String,
        in parent: URL,
        completionQueue: DispatchQueue,
        discipline: WriteDiscipline = .fixed
    ) throws {
        try InvalidIdentifier.check(name)
        self.name = name
        self.discipline = discipline
        self.completionQueue = completionQueue
        folder = parent.appendingPathComponent(name, isDirectory: true)
        staging = folder.appendingPathComponent(".staging", isDirectory: true)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        lock = try FolderLock(folder: folder)
        queue = RaceQueue(label: "racelab.persistent-data-store.\(name)", attributes: .concurrent)
        for leftover in (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? [] {
            _ = try? DataFile.remove(staging.appendingPathComponent(leftover).path)
        }
    }

    /// The data file of a checked identifier.
    func path(of identifier: Identifier) -> String {
        folder.appendingPathComponent(identifier, isDirectory: false).path
    }

    /// The staging file of a checked identifier.
    func stagingPath(of identifier: Identifier) -> String {
        staging.appendingPathComponent(identifier, isDirectory: false).path
    }

    /// Runs `work` on the store's queue: as a barrier when it writes (under the fixed discipline),
    /// concurrently when it reads.
    ///
    /// `RaceQueue` carries the caller's race-window hook into the work item, so that the runner's
    /// noise and a test's forced interleavings reach the windows inside file operations.
    func submit(writing: Bool, _ work: @escaping @Sendable () -> Void) {
        // hazard (no-barrier): without .barrier a write runs alongside loads and other writes of the
        // same identifier, and they see (and share) its files mid-write.
        let flags: DispatchWorkItemFlags = writing && discipline.barrier ? .barrier : []
        queue.async(flags: flags, execute: work)
    }

    /// Hands `result` to `completion` on the completion queue.
    func deliver<Outcome: Sendable>(_ result: Outcome, to completion: @escaping @Sendable (Outcome) -> Void) {
        completionQueue.async { completion(result) }
    }
}

import Foundation
import RaceLab

/// A coordinator that claims a file by locking a lock file of its own beside it, through
/// `RaceLockFile`; a conformer says only which lock it takes and how it lets go.
///
/// The lock lives in a file of its own (`counter.json.lock`): the data file is replaced on every
/// save, and a lock on the old file would guard a file nobody uses any more. Each claim opens the
/// lock file afresh and closes it when done, so who else the lock excludes depends only on the kind
/// of lock taken (`ProcessRecordLock`, `OpenFileDescriptionLock`).
public protocol LockFileCoordinator: FileAccessCoordinator {
    /// Takes the lock on `file`, shared for a reading claim and exclusive for a writing one.
    func lock(_ file: RaceLockFile, shared: Bool) throws
    /// Releases the lock `lock(_:shared:)` took on `file`.
    func unlock(_ file: RaceLockFile) throws
}

extension LockFileCoordinator {
    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(shared: true, on: url, accessor)
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(shared: false, on: url, accessor)
    }

    private func withLock<Value>(shared: Bool, on url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        let file = try RaceLockFile(path: url.path + ".lock")
        defer { file.close() }
        try lock(file, shared: shared)
        defer { try? unlock(file) }
        return try accessor(url)
    }
}

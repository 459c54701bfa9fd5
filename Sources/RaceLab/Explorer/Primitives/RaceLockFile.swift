import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A descriptor open on a lock file, whose kernel locks the schedule explorer can see: the POSIX
/// record lock (owned by the process) and the lock owned by the open file description.
///
/// Each instance is one `open()`, so one open file description. Outside exploration every call is
/// the kernel's (see `FileLocking`): `lockRecord` is `fcntl(F_SETLKW)`; `lockDescription` is
/// `fcntl(F_OFD_SETLKW)` on Linux and `flock(2)` on Darwin. On a logical thread of the explorer the
/// locks are modelled instead, with the kernel's ownership rules (`FileLockModel`): taking one is a
/// scheduling point (`fcntl lock <file>`, `flock <file>`) that cannot go on while another owner
/// holds a conflicting lock, so two threads' record locks never exclude each other, two
/// descriptions' locks do, and closing any descriptor of the file drops the process's record locks.
/// The kernel is not asked then: locks that other processes hold are not seen by the exploration.
public final class RaceLockFile: @unchecked Sendable {
    /// The file's path, as given.
    public let path: String
    /// The descriptor, for calls of your own (closed by `close()` or when the instance goes away).
    public let descriptor: Int32
    /// Keys the file's model, shared by every instance open on the same file.
    private let file: ObjectIdentifier
    private let closed = LockedValueBox(false)

    /// Opens (creating it if needed, mode 0600) the file at `path`.
    public init(path: String) throws(FileLockError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileLockError(operation: "open", path: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw FileLockError(operation: "fstat", path: path, errno: code)
        }
        file = FileIdentity.key(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(status.st_ino))
    }

    deinit {
        close()
    }

    /// Takes the process's POSIX record lock on the whole file (`fcntl(F_SETLKW)`), `shared` (a
    /// read lock) or exclusive, waiting while another process holds a conflicting one. Another
    /// thread of this process is granted it at once: the process already holds it.
    public func lockRecord(shared: Bool = false) throws(FileLockError) {
        try lock(.process, shared: shared, name: "fcntl lock") {
            FileLocking.recordLock(descriptor, shared: shared)
        }
    }

    /// Drops the process's record lock on the file, whichever thread took it.
    public func unlockRecord() throws(FileLockError) {
        try unlock(.process) { FileLocking.recordLock(descriptor, shared: false, unlock: true) }
    }

    /// Takes the lock owned by this open file description (`F_OFD_SETLKW` on Linux, `flock` on
    /// Darwin), `shared` or exclusive, waiting while another description holds a conflicting one,
    /// in this process or another.
    public func lockDescription(shared: Bool = false) throws(FileLockError) {
        try lock(.description(ObjectIdentifier(self)), shared: shared, name: "flock") {
            FileLocking.descriptionLock(descriptor, shared: shared)
        }
    }

    /// Drops this description's lock.
    public func unlockDescription() throws(FileLockError) {
        try unlock(.description(ObjectIdentifier(self))) {
            FileLocking.descriptionLock(descriptor, shared: false, unlock: true)
        }
    }

    /// Closes the descriptor: drops this description's lock and, as POSIX has it, every record lock
    /// the process holds on the file. Closing twice does nothing.
    public func close() {
        let wasClosed = closed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        if wasClosed { return }
        if let logical = LogicalThread.current {
            logical.withState { state in
                state.model(of: file, FileLockModel.init).close(ObjectIdentifier(self))
            }
        }
        closeDescriptor(descriptor)
    }

    private func lock(
        _ owner: FileLockModel.Owner,
        shared: Bool,
        name: String,
        kernel: () -> Int32
    ) throws(FileLockError) {
        guard let logical = LogicalThread.current else {
            let code = kernel()
            if code != 0 { throw FileLockError(operation: name, path: path, errno: code) }
            return
        }
        logical.pause(at: FileLockRequest(file: file, owner: owner, shared: shared, name: "\(name) \(shortName)"))
    }

    private func unlock(_ owner: FileLockModel.Owner, kernel: () -> Int32) throws(FileLockError) {
        guard let logical = LogicalThread.current else {
            let code = kernel()
            if code != 0 { throw FileLockError(operation: "unlock", path: path, errno: code) }
            return
        }
        logical.withState { state in state.model(of: file, FileLockModel.init).release(owner) }
    }

    /// The file's name, to keep timelines narrow.
    private var shortName: String {
        (path as NSString).lastPathComponent
    }
}

/// The C library's `close`, which `RaceLockFile.close()` hides inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// A file that could not be opened or locked, with the system's reason.
public struct FileLockError: Error, Equatable, CustomStringConvertible {
    /// What failed: `open`, `lock` or `unlock`.
    public let operation: String
    /// The file's path.
    public let path: String
    /// The system's error number.
    public let errno: Int32

    public var description: String {
        "cannot \(operation) \(path): \(String(cString: strerror(errno)))"
    }
}

/// One object per file (device and inode) whose identity keys the file's lock model, so that two
/// `RaceLockFile`s open on one file share it. Kept for the life of the process: a few bytes per file
/// ever locked under the explorer or outside it.
private enum FileIdentity {
    final class Key: Sendable {}
    struct ID: Hashable {
        let device: UInt64
        let inode: UInt64
    }
    static let keys = LockedValueBox<[ID: Key]>([:])

    static func key(device: UInt64, inode: UInt64) -> ObjectIdentifier {
        keys.withLockedValue { keys in
            let id = ID(device: device, inode: inode)
            if let key = keys[id] { return ObjectIdentifier(key) }
            let key = Key()
            keys[id] = key
            return ObjectIdentifier(key)
        }
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A coordinator built on open-file-description locks, `fcntl(F_OFD_SETLKW)`: the same call as
/// `ProcessRecordLock` with another command, and the lock `NSFileCoordinator`'s job needs on Linux.
///
/// An OFD lock belongs to the open file description that took it, that is, to one `open()` call.
/// Each claim opens the lock file itself, so two claims conflict whether they come from two threads
/// or two processes, and closing some other descriptor of the file releases nothing. The kernel
/// drops the lock when the description is closed, including when its process dies, so a killed
/// writer never leaves a file locked.
///
/// On Linux since 3.15. Glibc defines `F_OFD_SETLKW` only under `_GNU_SOURCE`, so Swift does not
/// see it; its value is fixed by the kernel ABI. Elsewhere `flock(2)`, which is also owned by the
/// open file description, takes its place.
public struct OpenFileDescriptionLock: FileAccessCoordinator {
    #if os(Linux)
    /// `F_OFD_SETLKW` from `<bits/fcntl-linux.h>`.
    static let setLockWait: Int32 = 38
    /// `F_OFD_SETLK`.
    static let setLock: Int32 = 37
    /// `F_OFD_GETLK`.
    static let getLock: Int32 = 36
    #endif

    public init() {}

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(shared: true, on: url, accessor)
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(shared: false, on: url, accessor)
    }

    private func withLock<Value>(shared: Bool, on url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        let file = try LockFile(for: url)
        #if os(Linux)
        try file.fcntlLock(Self.setLockWait, type: shared ? F_RDLCK : F_WRLCK)
        defer { try? file.fcntlLock(Self.setLock, type: F_UNLCK) }
        #else
        while flock(file.descriptor, shared ? LOCK_SH : LOCK_EX) < 0 {
            guard errno == EINTR else { throw LockError.lock(command: -1, errno: errno) }
        }
        defer { flock(file.descriptor, LOCK_UN) }
        #endif
        return try accessor(url)
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The kernel's whole-file locks, as `RaceLockFile` takes them outside exploration: where Glibc and
/// Darwin differ.
///
/// - A POSIX record lock (`fcntl(F_SETLKW)`) is owned by the process: on both systems.
/// - A lock owned by the open file description is `fcntl(F_OFD_SETLKW)` on Linux (since 3.15) and
///   `flock(2)` on Darwin, which has no OFD commands. Glibc defines `F_OFD_*` only under
///   `_GNU_SOURCE`, so Swift does not see them; their values are fixed by the kernel ABI.
package enum FileLocking {
    #if os(Linux)
    /// `F_OFD_GETLK`, `F_OFD_SETLK`, `F_OFD_SETLKW` from `<bits/fcntl-linux.h>`.
    package static let getDescriptionLock: Int32 = 36
    package static let setDescriptionLock: Int32 = 37
    package static let setDescriptionLockWait: Int32 = 38
    #endif

    /// Takes (`shared` or exclusive), or with `unlock` drops, the process's record lock on the whole
    /// file, waiting while another process holds a conflicting one. Returns 0 or an `errno`.
    static func recordLock(_ descriptor: Int32, shared: Bool, unlock: Bool = false) -> Int32 {
        fcntlLock(descriptor, command: unlock ? F_SETLK : F_SETLKW, type: unlock ? F_UNLCK : shared ? F_RDLCK : F_WRLCK)
    }

    /// The same for the lock owned by the open file description `descriptor` refers to.
    static func descriptionLock(_ descriptor: Int32, shared: Bool, unlock: Bool = false) -> Int32 {
        #if os(Linux)
        return fcntlLock(
            descriptor,
            command: unlock ? setDescriptionLock : setDescriptionLockWait,
            type: unlock ? F_UNLCK : shared ? F_RDLCK : F_WRLCK
        )
        #else
        let operation = unlock ? LOCK_UN : shared ? LOCK_SH : LOCK_EX
        while flock(descriptor, operation) < 0 {
            guard errno == EINTR else { return errno }
        }
        return 0
        #endif
    }

    /// One `fcntl` record-lock command for the whole file, retried when interrupted.
    private static func fcntlLock(_ descriptor: Int32, command: Int32, type: Int32) -> Int32 {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0  // to the end of the file, however long it grows
        request.l_pid = 0  // required by open-file-description locks
        while fcntl(descriptor, command, &request) < 0 {
            guard errno == EINTR else { return errno }
        }
        return 0
    }
}

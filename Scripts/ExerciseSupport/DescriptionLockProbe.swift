import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Whether another open file description holds a lock on the file at `path` of the kind
/// `RaceLockFile.lockDescription()` takes (`F_OFD_SETLKW` on Linux, `flock` on Darwin): asked
/// through an `open()` of its own, without waiting and without keeping a lock. False when the file
/// cannot be opened.
public func descriptionLockHeld(onFileAt path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { _ = close(descriptor) }
    #if os(Linux)
    var request = flock()
    request.l_type = Int16(F_WRLCK)
    request.l_whence = Int16(SEEK_SET)
    // `F_OFD_GETLK` (36): Glibc defines it only under `_GNU_SOURCE`, which Swift does not see.
    return fcntl(descriptor, 36, &request) == 0 && request.l_type != Int16(F_UNLCK)
    #else
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        _ = flock(descriptor, LOCK_UN)
        return false
    }
    return errno == EWOULDBLOCK
    #endif
}

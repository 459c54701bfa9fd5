// Compiler probe · lesson 4 · cross-process
// Open-file-description locks (F_OFD_SETLKW, Linux): owned by the open file, so they exclude
// other threads and other processes alike. Accepted by Swift 6, as the process-owned lock is: the
// compiler cannot tell the right lock owner from the wrong one.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct Coordinator: FileAccessCoordinator {
    /// F_OFD_SETLKW and F_OFD_SETLK on Linux (not exported by Glibc's module map).
    static let setLockWait: Int32 = 38
    static let setLock: Int32 = 37

    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        try withWriteLock(onFileAt: url.path, wait: Self.setLockWait, unlock: Self.setLock) { try body(url) }
    }
}

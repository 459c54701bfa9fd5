// Compiler probe · lesson 4 · fcntl-process-lock
// A record lock with fcntl(F_SETLKW): the lock belongs to the process, so every thread of the
// process "holds" it at once and nothing is excluded. Accepted by Swift 6 (a struct holding a URL);
// silent under TSan (TSan does not treat fcntl as a lock, and no memory is shared): a lock with the
// wrong owner is invisible to both.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct Coordinator: FileAccessCoordinator {
    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        try withWriteLock(onFileAt: url.path, wait: F_SETLKW, unlock: F_SETLK) { try body(url) }
    }
}

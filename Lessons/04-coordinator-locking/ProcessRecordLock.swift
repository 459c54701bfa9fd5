import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A coordinator built on POSIX record locks, `fcntl(F_SETLKW)`: the lock most code reaches for
/// first, and the wrong one for threads.
///
/// A POSIX record lock belongs to the *process*. Another process asking for a conflicting lock
/// waits; another thread of the same process asking for it is granted at once, because the process
/// already holds it (the request just replaces the lock with itself). And when the process closes
/// *any* descriptor of the file, every lock the process holds on it is gone, whichever thread took
/// it. Between processes this coordinator works; between the threads of one, it excludes nothing.
public struct ProcessRecordLock: FileAccessCoordinator {
    public init() {}

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(F_RDLCK, on: url, accessor)
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try withLock(F_WRLCK, on: url, accessor)
    }

    private func withLock<Value>(_ type: Int32, on url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        let file = try LockFile(for: url)
        // hazard: F_SETLKW locks are owned by the process: another thread's request for this very
        // lock succeeds at once, so the threads of this process all hold "the" lock together.
        try file.fcntlLock(F_SETLKW, type: type)
        defer { try? file.fcntlLock(F_SETLK, type: F_UNLCK) }
        return try accessor(url)
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A descriptor open on the lock file beside a data file (`counter.json.lock`), for the coordinators
/// that use kernel file locks.
///
/// The lock lives in a file of its own because the data file is replaced on every save: a lock taken
/// on the old file would guard a file nobody uses any more.
struct LockFile: ~Copyable {
    let descriptor: Int32

    /// Opens (creating if needed) the lock file for `url`.
    init(for url: URL) throws {
        let path = url.path + ".lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LockError.open(path: path, errno: errno) }
    }

    deinit {
        close(descriptor)
    }

    /// Issues the `fcntl` record-lock `command` for the whole file with lock type `type`
    /// (`F_RDLCK`, `F_WRLCK` or `F_UNLCK`), waiting if the command waits.
    func fcntlLock(_ command: Int32, type: Int32) throws {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0  // to the end of the file, however long it grows
        request.l_pid = 0  // required by open-file-description locks
        while fcntl(descriptor, command, &request) < 0 {
            guard errno == EINTR else { throw LockError.lock(command: command, errno: errno) }
        }
    }
}

/// A file lock that could not be taken.
public enum LockError: Error, CustomStringConvertible {
    case open(path: String, errno: Int32)
    case lock(command: Int32, errno: Int32)

    public var description: String {
        switch self {
        case .open(let path, let code): "cannot open lock file \(path): \(String(cString: strerror(code)))"
        case .lock(let command, let code): "fcntl command \(command) failed: \(String(cString: strerror(code)))"
        }
    }
}

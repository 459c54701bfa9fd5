import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The claim of one `PersistentDataStore` on its folder: an exclusive `flock` on `<folder>/.lock`,
/// held for the store's lifetime.
///
/// The barrier orders the writes of *one* store; two stores on one folder would each order only
/// their own. The lock makes a second store on the folder fail at once, in this process or another
/// (a `flock` belongs to the open file description, so it also excludes a second store of the same
/// process, which a `fcntl` record lock would not: see lesson 4). The kernel releases it when the
/// store goes away or its process dies, so a crashed writer never locks the folder for good.
final class FolderLock: Sendable {
    private let descriptor: Int32

    init(folder: URL) throws {
        let path = folder.appendingPathComponent(".lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.system(operation: "open", path: path, errno: errno) }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw StoreError.folderInUse(folder.path) }
            throw StoreError.system(operation: "flock", path: path, errno: code)
        }
    }

    deinit {
        close(descriptor)
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
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

    /// Takes the lock of `folder`; `.lock` must be a regular file (a link there is refused, never
    /// followed or created through).
    init(in folder: StoreDirectory) throws {
        let path = folder.path(of: ".lock")
        guard let opened = try folder.openFile(".lock", O_RDWR | O_CREAT, mode: 0o600) else {
            throw StoreError.system(operation: "open", path: path, errno: ENOENT)
        }
        while flock(opened, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(opened)
            if code == EWOULDBLOCK { throw StoreError.folderInUse(folder.path) }
            throw StoreError.system(operation: "flock", path: path, errno: code)
        }
        // Stored only once locked: an initializer that throws after storing it would also run
        // `deinit`, closing the descriptor twice.
        descriptor = opened
    }

    deinit {
        close(descriptor)
    }
}

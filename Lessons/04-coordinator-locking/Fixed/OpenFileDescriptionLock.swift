import Foundation
import RaceLab

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
/// see it; its value is fixed by the kernel ABI (RaceLab's platform layer spells it out). Elsewhere
/// `flock(2)`, which is also owned by the open file description, takes its place. Both come through
/// `RaceLockFile.lockDescription`, whose explorer model has the same ownership rules.
public struct OpenFileDescriptionLock: LockFileCoordinator {
    public init() {}

    public func lock(_ file: RaceLockFile, shared: Bool) throws {
        try file.lockDescription(shared: shared)
    }

    public func unlock(_ file: RaceLockFile) throws {
        try file.unlockDescription()
    }
}

import Foundation
import RaceLab

/// A coordinator built on POSIX record locks, `fcntl(F_SETLKW)`: the lock most code reaches for
/// first, and the wrong one for threads.
///
/// A POSIX record lock belongs to the *process*. Another process asking for a conflicting lock
/// waits; another thread of the same process asking for it is granted at once, because the process
/// already holds it (the request just replaces the lock with itself). And when the process closes
/// *any* descriptor of the file, every lock the process holds on it is gone, whichever thread took
/// it. Between processes this coordinator works; between the threads of one, it excludes nothing.
///
/// The lock is taken through `RaceLockFile`, whose explorer model has these very rules, so
/// `racelab explore` grants it to the second thread as the kernel does.
public struct ProcessRecordLock: LockFileCoordinator {
    public init() {}

    public func lock(_ file: RaceLockFile, shared: Bool) throws {
        // hazard: F_SETLKW locks are owned by the process: another thread's request for this very
        // lock succeeds at once, so the threads of this process all hold "the" lock together.
        try file.lockRecord(shared: shared)
    }

    public func unlock(_ file: RaceLockFile) throws {
        try file.unlockRecord()
    }
}

import Foundation
import RaceLabTesting
import Testing

@testable import CoordinatorLocking

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Who owns a kernel file lock decides whom it excludes. These tests look at the lock from outside
/// with `F_OFD_GETLK` through a descriptor of their own, opened before the claim and kept open (an
/// OFD lock query conflicts with every lock another open file description or a POSIX lock holds,
/// even one of the querying process).
@Suite("fcntl record locks belong to the process; OFD locks to the open file description")
struct RecordLockOwnershipTests {
    // Looking at a lock from outside needs `F_OFD_GETLK`, which only Linux has (`OpenFileDescriptionLock`
    // uses `flock(2)` elsewhere).
    #if os(Linux)
    /// The lock type another open file description would run into on the lock file: `F_WRLCK`
    /// while someone holds the write lock, `F_UNLCK` when nobody does.
    static func lockSeenFromOutside(_ probe: Int32) -> Int32 {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0
        request.l_pid = 0
        let status = fcntl(probe, FileLocking.getDescriptionLock, &request)
        precondition(status == 0, "F_OFD_GETLK failed: \(errno)")
        return Int32(request.l_type)
    }

    /// Opens the lock file of `url` as an unrelated part of the same process would.
    static func openLockFile(_ url: URL) -> Int32 {
        open(url.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    }

    /// Claims a fresh counter file with `coordinator` and runs `body` inside the claim, with the
    /// claimed URL and a probe descriptor opened before the claim (see `lockSeenFromOutside`).
    /// Returns what the probe sees once the claim has ended.
    static func insideClaim(
        of coordinator: some FileAccessCoordinator,
        _ body: (_ url: URL, _ probe: Int32) -> Void
    ) throws -> Int32 {
        let folder = try TestFolder()
        defer { folder.remove() }
        let probe = openLockFile(folder.counter)
        defer { close(probe) }
        try coordinator.coordinateWriting(at: folder.counter) { url in body(url, probe) }
        return lockSeenFromOutside(probe)
    }

    @Test("closing any descriptor of the file drops a POSIX record lock mid-claim")
    func closingAnotherDescriptorDropsProcessLock() throws {
        _ = try Self.insideClaim(of: ProcessRecordLock()) { url, probe in
            #expect(Self.lockSeenFromOutside(probe) == F_WRLCK)
            // Some other code of this process opens and closes the lock file (another storage's
            // claim that finished, a file browser, a backup): the process's lock goes with it.
            close(Self.openLockFile(url))
            #expect(Self.lockSeenFromOutside(probe) == F_UNLCK, "still inside the claim, yet unlocked")
        }
    }

    @Test("an OFD lock survives other descriptors of the file being closed")
    func openFileDescriptionLockSurvivesOtherCloses() throws {
        let afterClaim = try Self.insideClaim(of: OpenFileDescriptionLock()) { url, probe in
            close(Self.openLockFile(url))
            #expect(Self.lockSeenFromOutside(probe) == F_WRLCK)
        }
        #expect(afterClaim == F_UNLCK)
    }

    #endif

    @Test("a second thread's F_SETLKW is granted while the first holds the lock")
    func secondThreadGetsProcessLockAtOnce() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let grantedWhileHeld = await onOwnThread { [file = folder.counter] in
            (try? ProcessRecordLock().coordinateWriting(at: file) { _ in
                let granted = DispatchSemaphore(value: 0)
                Thread {
                    try? ProcessRecordLock().coordinateWriting(at: file) { _ in _ = granted.signal() }
                }.start()
                return granted.wait(timeout: .now() + 20) == .success
            }) ?? false
        }
        #expect(grantedWhileHeld)
    }
}

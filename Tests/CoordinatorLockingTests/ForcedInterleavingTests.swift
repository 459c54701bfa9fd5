import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import CoordinatorLocking

/// The lesson's timeline, forced: storage A has read the counter (0) and stands at its save; inside
/// that window storage B starts a whole increment and A waits for it; then A saves. Where B's
/// increment went tells whether the coordinator kept B out of A's claim.
@Suite("Two storages, one file: a second increment inside the first one's claim")
struct ForcedInterleavingTests {
    /// A coordinator setup: how storage A's and storage B's coordinators are made.
    struct Setup: Sendable, CustomTestStringConvertible {
        var name: String
        var excludes: Bool
        var pair: @Sendable () -> (any FileAccessCoordinator, any FileAccessCoordinator)

        var testDescription: String { name }
    }

    static let setups: [Setup] = [
        Setup(name: "uncoordinated", excludes: false) { (Uncoordinated(), Uncoordinated()) },
        Setup(name: "owner-scoped, one owner shared", excludes: false) {
            let presenter = ClaimOwner()
            return (OwnerScopedCoordinator(owner: presenter), OwnerScopedCoordinator(owner: presenter))
        },
        Setup(name: "fcntl F_SETLKW, two threads of one process", excludes: false) {
            (ProcessRecordLock(), ProcessRecordLock())
        },
        Setup(name: "owner-scoped, an owner per claim", excludes: true) {
            (OwnerScopedCoordinator(), OwnerScopedCoordinator())
        },
        Setup(name: "FileCoordinator", excludes: true) { (FileCoordinator(), FileCoordinator()) },
        Setup(name: "open-file-description lock", excludes: true) {
            (OpenFileDescriptionLock(), OpenFileDescriptionLock())
        },
    ]

    @Test("B's increment survives only if the coordinator kept B out of A's claim", arguments: setups)
    func secondIncrementInsideTheClaim(setup: Setup) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let file = folder.counter
        let (coordinatorA, coordinatorB) = setup.pair()
        // A correct coordinator makes B wait for A, so A waits out its patience; keep that short.
        // A broken one lets B through at once, so a long patience costs nothing.
        let patience: DispatchTimeInterval = setup.excludes ? .milliseconds(300) : .seconds(20)
        let threadB = ThreadGroup()
        let bFinishedInsideA = LockedValueBox(false)
        let hook = AtWindow("save object") {
            // A has read 0 and not saved yet. B: a whole increment, if the coordinator lets it in.
            let finished = DispatchSemaphore(value: 0)
            threadB.start {
                try increment(file, through: coordinatorB)
                finished.signal()
            }
            let inside = finished.wait(timeout: .now() + patience) == .success
            bFinishedInsideA.withLockedValue { $0 = inside }
        }

        let errors = await onOwnThread { () -> [String] in
            let failures = ThreadGroup()
            failures.start { try Race.$hook.withValue(hook) { try increment(file, through: coordinatorA) } }
            return failures.wait() + threadB.wait()
        }

        #expect(hook.fired)
        #expect(errors.isEmpty)
        if setup.excludes {
            #expect(!bFinishedInsideA.value, "B finished while A held a writing claim")
            #expect(try counterValue(file) == 2)
        } else {
            // B read 0 and saved 1 while A was held; A then saved its own 0 + 1 over it.
            #expect(bFinishedInsideA.value)
            #expect(try counterValue(file) == 1)
        }
    }
}

import Foundation
import RaceLabTesting
import Testing

@testable import CoordinatorLocking

@Suite("An owner-scoped coordinator excludes other owners, never its own")
struct OwnerScopedCoordinatorTests {
    let url = URL(fileURLWithPath: "/racelab-test/owner-scoped/\(UUID().uuidString)")

    /// A claim's bookkeeping (`same-owner-costly-claim`'s modelled cost) delays its grant, never
    /// refuses it: the second claim of the owner still gets in while the first is held.
    @Test(
        "a claim of the same owner gets in while a writing claim is held, whatever a claim costs",
        arguments: [Duration.zero, .milliseconds(2)]
    )
    func sameOwnerPassesThrough(claimCost: Duration) async {
        let table = ClaimTable()
        let owner = ClaimOwner()
        let finished = DispatchSemaphore(value: 0)
        let enteredWhileHeld = await onOwnThread { [url] in
            OwnerScopedCoordinator(owner: owner, claimCost: claimCost, table: table).coordinateWriting(at: url) { _ in
                // Another storage, another thread, the same owner: admitted once its bookkeeping is done.
                let entered = DispatchSemaphore(value: 0)
                Thread {
                    OwnerScopedCoordinator(owner: owner, claimCost: claimCost, table: table).coordinateWriting(
                        at: url
                    ) { _ in
                        _ = entered.signal()
                    }
                    // Its claim has ended: only now may the table be empty.
                    finished.signal()
                }.start()
                return entered.wait(timeout: .now() + 20) == .success
            }
        }
        #expect(enteredWhileHeld)
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(table.fileCount == 0)
    }

    @Test("a claim of another owner waits until the writing claim ends")
    func otherOwnerWaits() async {
        let table = ClaimTable()
        let order = await onOwnThread { [url] () -> [String] in
            let events = EventLog()
            let waiterDone = DispatchSemaphore(value: 0)
            OwnerScopedCoordinator(owner: ClaimOwner(), table: table).coordinateWriting(at: url) { _ in
                Thread {
                    OwnerScopedCoordinator(owner: ClaimOwner(), table: table).coordinateReading(at: url) { _ in
                        events.append("other owner read")
                    }
                    waiterDone.signal()
                }.start()
                // The other owner cannot get in while this claim lasts, however long we give it.
                _ = waiterDone.wait(timeout: .now() + .milliseconds(200))
                events.append("writer done")
            }
            waiterDone.wait()
            return events.entries
        }
        #expect(order == ["writer done", "other owner read"])
        #expect(table.fileCount == 0)
    }

    @Test("readers of different owners share the file")
    func readersShare() async {
        let table = ClaimTable()
        let bothInside = await onOwnThread { [url] in
            OwnerScopedCoordinator(owner: ClaimOwner(), table: table).coordinateReading(at: url) { _ in
                let entered = DispatchSemaphore(value: 0)
                Thread {
                    OwnerScopedCoordinator(owner: ClaimOwner(), table: table).coordinateReading(at: url) { _ in
                        _ = entered.signal()
                    }
                }.start()
                return entered.wait(timeout: .now() + 20) == .success
            }
        }
        #expect(bothInside)
    }
}

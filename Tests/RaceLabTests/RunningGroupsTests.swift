import Foundation
import Testing

@testable import RaceLab

/// The table the interrupt handler reads: children running side by side each keep their own slot
/// (one shared variable lost all but the last, and was a data race TSan reported).
@Suite("Running child process groups, for the interrupt handler")
struct RunningGroupsTests {
    @Test("children running at once each get a slot; a full table says so; a freed slot is reused")
    func slots() throws {
        let table = ChildProcess.RunningGroups(slots: 2)
        let first = try #require(table.register(101))
        let second = try #require(table.register(102))
        #expect(first !== second)
        #expect(table.register(103) == nil)
        first.group.store(0, ordering: .relaxed)
        let third = try #require(table.register(103))
        #expect(third === first)
        #expect(second.group.load(ordering: .relaxed) == 102)
    }

    @Test("registrations from many threads at once never share a slot")
    func concurrent() {
        let table = ChildProcess.RunningGroups(slots: 64)
        let taken = LockedValueBox<[ObjectIdentifier]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            if let slot = table.register(pid_t(1_000 + index)) {
                taken.withLockedValue { $0.append(ObjectIdentifier(slot)) }
            }
        }
        let slots = taken.withLockedValue { $0 }
        #expect(slots.count == 64)
        #expect(Set(slots).count == 64)
    }
}

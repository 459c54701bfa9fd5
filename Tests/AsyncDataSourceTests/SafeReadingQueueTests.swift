import AsyncDataSource
import Dispatch
import RaceLab
import RaceLabTesting
import Testing

@Suite("Writes synchronized into the reading queue: the UI reads freely, the writer waits")
struct SafeReadingQueueTests {
    @Test("an update computed while the UI renders waits until the render is over; the render stays consistent")
    func updateWaitsForTheUI() {
        let ui = RaceQueue(label: "test.ui")
        let dataSource = SafeReadingQueueDataSource(initialState: CollectionState.initial, readingQueue: ui)
        let computed = DispatchSemaphore(value: 0)
        let versionAfterUpdate = LockedValueBox<Int?>(nil)
        let writer = AtWindow("read items") {
            dataSource.update { state in
                defer { computed.signal() }
                return state.next()
            }
            // The new state exists now; assigning it needs the UI queue, which this work item holds.
            computed.wait()
            let version = dataSource.state.version
            versionAfterUpdate.withLockedValue { $0 = version }
        }
        let found = ui.sync {
            Race.$hook.withValue(writer) {
                CollectionReader.auditByRepeatedReads(cell: 1) { dataSource.state }
            }
        }
        #expect(writer.fired)
        #expect(found.isEmpty)
        // Had this work item waited for the update to be *assigned*, neither queue would ever move
        // again: the deadlock this design must avoid.
        #expect(versionAfterUpdate.value == 0)
        dataSource.waitUntilIdle()
        #expect(ui.sync { dataSource.state.version } == 1)
    }

    @Test("updates from many threads at once: none lost")
    func concurrentUpdates() {
        let ui = RaceQueue(label: "test.ui")
        let dataSource = SafeReadingQueueDataSource(initialState: CollectionState.initial, readingQueue: ui)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in dataSource.update { $0.next() } }
        dataSource.waitUntilIdle()
        #expect(ui.sync { dataSource.state.version } == 1_000)
    }
}

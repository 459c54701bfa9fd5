import AsyncDataSource
import Dispatch
import Foundation
import RaceLab
import Testing

@Suite("Synchronous reads on the data source's queue: always the newest state, at the price of waiting")
struct SyncOperationsTests {
    @Test("a synchronous read comes after every update queued before it")
    func readYourWrites() {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        for _ in 0..<5 { dataSource.update { $0.next() } }
        #expect(dataSource.read { $0.version } == 5)
        dataSource.update(sync: true) { $0.next() }
        #expect(dataSource.read { $0.version } == 6)
    }

    @Test("a read block holds one state: an update queued during the block waits for the block to end")
    func readBlockHoldsOneState() {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        let versions = dataSource.read { state -> [Int] in
            dataSource.update { $0.next() }  // asynchronous: it cannot run while this read is on the queue
            return [state.version, state.items[0].version, state.footer.version]
        }
        #expect(versions == [0, 0, 0])
        #expect(dataSource.read { $0.version } == 1)
    }

    @Test("a reader that arrives while an update runs waits for it, sees its result, and the meter says so")
    func readerWaitsBehindAnUpdate() {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        let updateStarted = DispatchSemaphore(value: 0)
        let releaseUpdate = DispatchSemaphore(value: 0)
        dataSource.update { state in
            updateStarted.signal()
            releaseUpdate.wait()  // a slow update: the "heavy operation" of the article
            return state.next()
        }
        updateStarted.wait()

        let seen = LockedValueBox<Int?>(nil)
        let readDone = DispatchSemaphore(value: 0)
        Thread {
            let version = dataSource.read { $0.version }
            seen.withLockedValue { $0 = version }
            readDone.signal()
        }.start()
        while dataSource.readerWaits.readCount == 0 { sched_yield() }
        #expect(dataSource.readerWaits.waitCount == 1)
        #expect(seen.value == nil)  // still blocked: the update holds the queue

        releaseUpdate.signal()
        readDone.wait()
        #expect(seen.value == 1)
    }

    @Test("observers: notify-on-add tells the current state once, then every state in order")
    func observers() {
        let dataSource = SyncOperationsDataSource(initialState: CollectionState.initial)
        expectObserversHearEveryState(
            updates: 1_000,
            add: { dataSource.add(observer: $0, notifyOnAdded: $1, sync: true) },
            update: { index in dataSource.update(sync: index % 2 == 0) { $0.next() } },
            settledVersion: {
                dataSource.waitUntilIdle()
                return dataSource.read { $0.version }
            }
        )
    }
}

import AsyncDataSource
import Dispatch
import Foundation
import RaceLab
import RaceLabTesting
import Testing

@Suite("An atomic state observer: whole snapshots from any thread, ordered only if told from one queue")
struct AtomicObserverTests {
    @Test("each read is a whole state, but two reads may be two states, like the atomic property")
    func twoReadsTwoStates() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let latest = AtomicStateObserver(state: CollectionState.initial)
        dataSource.add(observer: latest, notifyOnAdded: false)
        let title = latest.state.items[0].title
        dataSource.update { $0.next() }
        dataSource.waitUntilIdle()
        let detailedTitle = latest.state.items[0].detailedTitle
        #expect(Audit.tornCell(title: title, detailedTitle: detailedTitle)?.kind == .tornCell)
        #expect(CollectionReader.audit(snapshot: latest.state, cell: 0).isEmpty)
    }

    @Test("told from the data source's queue, its observers hear every state in order")
    func orderedWhenToldSerially() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let latest = AtomicStateObserver(state: CollectionState.initial)
        dataSource.add(observer: latest, notifyOnAdded: false)
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        latest.add(observer: observer)
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in dataSource.update { $0.next() } }
        dataSource.waitUntilIdle()
        #expect(latest.state.version == 1_000)
        #expect(observer.toldVersions == Array(1...1_000))
    }

    @Test("told from two threads at once, it can pass the newer state on first: why it needs a serial caller")
    func disorderedWhenToldConcurrently() async {
        let latest = AtomicStateObserver(state: CollectionState.initial)
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        latest.add(observer: observer)
        // Thread A stores v1 and, before passing it on, lets thread B store and pass on v2.
        let threadB = AtWindow("notify observers") {
            let done = DispatchSemaphore(value: 0)
            Thread {
                latest.dataSourceChanged(CollectionState(version: 2))
                done.signal()
            }.start()
            done.wait()
        }
        await onOwnThread {
            Race.$hook.withValue(threadB) { latest.dataSourceChanged(CollectionState(version: 1)) }
        }
        #expect(threadB.fired)
        #expect(observer.toldVersions == [2, 1])
        #expect(latest.state.version == 2)
        #expect(kinds(observer.problems(finalVersion: 2)) == [.observerOrder, .observerOrder])
    }
}

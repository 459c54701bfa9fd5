import AsyncDataSource
import Dispatch
import RaceLab
import RaceLabTesting
import Testing

@Suite("A specific-queue observer: the UI reads the latest state it was sent, with no lock")
struct SpecificQueueObserverTests {
    private func makeObserved() -> (
        StateDataSource<CollectionState>, SpecificQueueStateObserver<CollectionState>, RaceQueue
    ) {
        let ui = RaceQueue(label: "test.ui")
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let uiState = SpecificQueueStateObserver(queue: ui, state: CollectionState.initial)
        dataSource.add(observer: uiState, notifyOnAdded: false)
        return (dataSource, uiState, ui)
    }

    @Test("a state delivered while the UI renders shows in the next UI work item, not in this one")
    func deliveryDuringRender() {
        let (dataSource, uiState, ui) = makeObserved()
        let writer = AtWindow("read footer") {
            dataSource.update { $0.next() }
            dataSource.waitUntilIdle()  // applied, and sent to the UI queue
        }
        let found = ui.sync {
            Race.$hook.withValue(writer) {
                CollectionReader.auditByRepeatedReads(cell: 0) { uiState.state }
            }
        }
        #expect(writer.fired)
        #expect(found.isEmpty)
        #expect(ui.sync { uiState.state.version } == 1)
    }

    @Test("an observer added on the UI queue with notify-on-add hears the UI's state once, then each new one")
    func notifyOnAdd() {
        let (dataSource, uiState, ui) = makeObserved()
        for _ in 0..<3 { dataSource.update { $0.next() } }
        dataSource.waitUntilIdle()
        let observer = OrderCheckingObserver(expectsCurrentState: true)
        ui.sync { uiState.add(observer: observer, notifyOnAdded: true) }
        #expect(observer.toldVersions == [3])
        dataSource.update { $0.next() }
        dataSource.waitUntilIdle()
        ui.sync {}
        #expect(observer.toldVersions == [3, 4])
    }

    @Test("updates from many threads at once: the UI's observers hear every state in order")
    func concurrentUpdates() {
        let (dataSource, uiState, ui) = makeObserved()
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        ui.sync { uiState.add(observer: observer, notifyOnAdded: false) }
        DispatchQueue.concurrentPerform(iterations: 1_000) { _ in dataSource.update { $0.next() } }
        dataSource.waitUntilIdle()
        ui.sync {}
        #expect(observer.toldVersions == Array(1...1_000))
    }
}

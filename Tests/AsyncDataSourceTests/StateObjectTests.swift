import AsyncDataSource
import Dispatch
import RaceLab
import RaceLabTesting
import Testing

@Suite("One immutable state, replaced whole, is what every reader gets")
struct StateObjectTests {
    @Test("an update landing while the UI renders does not reach the UI until the render is over")
    func updateDuringRender() {
        let ui = RaceQueue(label: "test.ui")
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let component = CollectionComponent(queue: ui, state: .initial)
        dataSource.add(observer: component, notifyOnAdded: false)
        let writer = AtWindow("read detailedTitle") {
            dataSource.update { $0.next() }
            dataSource.waitUntilIdle()  // applied, and the component has been told
        }
        let found = ui.sync { Race.$hook.withValue(writer) { component.render(cell: 1) } }
        #expect(writer.fired)
        #expect(found.isEmpty)
        #expect(ui.sync { component.currentState.version } == 1)
    }

    @Test("a snapshot handed out by read {} stays what it was after later updates")
    func snapshotsStay() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        let snapshot = dataSource.settledState()
        for _ in 0..<3 { dataSource.update { $0.next() } }
        #expect(dataSource.settledState().version == 3)
        #expect(snapshot == .initial)
        #expect(CollectionReader.audit(snapshot: snapshot, cell: 1).isEmpty)
    }

    @Test("an observer added with notify-on-add hears the current state exactly once, then each new one")
    func notifyOnAdd() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        for _ in 0..<3 { dataSource.update { $0.next() } }
        let observer = OrderCheckingObserver(expectsCurrentState: true)
        dataSource.add(observer: observer, notifyOnAdded: true)
        dataSource.waitUntilIdle()
        #expect(observer.toldVersions == [3])
        dataSource.update { $0.next() }
        dataSource.waitUntilIdle()
        #expect(observer.toldVersions == [3, 4])
    }

    @Test("an observer added without notify-on-add hears only what comes after")
    func noNotifyOnAdd() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        dataSource.update { $0.next() }
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        dataSource.add(observer: observer, notifyOnAdded: false)
        dataSource.waitUntilIdle()
        #expect(observer.toldVersions.isEmpty)
        dataSource.update { $0.next() }
        dataSource.waitUntilIdle()
        #expect(observer.toldVersions == [2])
    }

    @Test("updates from many threads at once: none lost, observers hear every state in order")
    func concurrentUpdates() {
        let dataSource = StateDataSource(initialState: CollectionState.initial)
        expectObserversHearEveryState(of: dataSource, updates: 2_000)
    }
}

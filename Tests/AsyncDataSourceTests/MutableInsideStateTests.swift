import AsyncDataSource
import Dispatch
import RaceLab
import RaceLabTesting
import Testing

@Suite("Immutability must be deep: a state holding a mutable reference changes under its readers")
struct MutableInsideStateTests {
    @Test("making the next state changes the snapshot a reader already holds")
    func snapshotChangesUnderTheReader() {
        let snapshot = LeakyState.initial()
        #expect(snapshot.render() == nil)
        _ = snapshot.next()
        #expect(snapshot.render()?.kind == .mixedState)
    }

    @Test(
        "the same through the data source: an update lands while the UI reads its own copy",
        .racesOnPurpose("the class shared inside the state is written while the UI reads it: a data race")
    )
    func updateWhileTheUIReads() {
        let ui = RaceQueue(label: "test.ui")
        let initial = LeakyState.initial()
        let dataSource = StateDataSource(initialState: initial)
        let uiState = SpecificQueueStateObserver(queue: ui, state: initial)
        dataSource.add(observer: uiState, notifyOnAdded: false)
        let writer = AtWindow("read footer") {
            dataSource.update { $0.next() }
            dataSource.waitUntilIdle()
        }
        let found = ui.sync { Race.$hook.withValue(writer) { uiState.state.render() } }
        #expect(writer.fired)
        #expect(found?.kind == .mixedState)
    }

    @Test("a deeply immutable state does not change when the next one is made")
    func deepImmutability() {
        let snapshot = CollectionState.initial
        _ = snapshot.next()
        #expect(snapshot == CollectionState(version: 0))
        #expect(CollectionReader.audit(snapshot: snapshot, cell: 1).isEmpty)
    }
}

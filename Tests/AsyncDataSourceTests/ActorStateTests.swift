import AsyncDataSource
import Testing

@Suite("The state object in an actor")
struct ActorStateTests {
    @Test("updates from many tasks at once: none lost, observers hear every state in order")
    func concurrentUpdates() async {
        let dataSource = ActorDataSource(initialState: CollectionState.initial)
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        await dataSource.add(observer: observer, notifyOnAdded: false)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2_000 {
                group.addTask { await dataSource.updateState { $0.next() } }
            }
        }
        #expect(await dataSource.state.version == 2_000)
        #expect(observer.toldVersions == Array(1...2_000))
    }

    @Test("an observer added with notify-on-add hears the current state exactly once, then each new one")
    func notifyOnAdd() async {
        let dataSource = ActorDataSource(initialState: CollectionState.initial)
        for _ in 0..<3 { await dataSource.updateState { $0.next() } }
        let observer = OrderCheckingObserver(expectsCurrentState: true)
        await dataSource.add(observer: observer, notifyOnAdded: true)
        await dataSource.updateState { $0.next() }
        #expect(observer.toldVersions == [3, 4])
    }

    @Test("two awaits are two snapshots: mixing them is the reader's bug, keeping one is the fix")
    func twoAwaitsAreTwoSnapshots() async {
        let dataSource = ActorDataSource(initialState: CollectionState.initial)
        let title = await dataSource.state.items[0].title
        await dataSource.updateState { $0.next() }
        let detailedTitle = await dataSource.state.items[0].detailedTitle
        #expect(Audit.tornCell(title: title, detailedTitle: detailedTitle)?.kind == .tornCell)

        let snapshot = await dataSource.state
        await dataSource.updateState { $0.next() }
        #expect(CollectionReader.audit(snapshot: snapshot, cell: 0).isEmpty)
    }

    @Test("an update that returns nil leaves the state and tells no one")
    func nilUpdate() async {
        let dataSource = ActorDataSource(initialState: CollectionState.initial)
        let observer = OrderCheckingObserver(expectsCurrentState: false)
        await dataSource.add(observer: observer, notifyOnAdded: false)
        await dataSource.updateState { _ in nil }
        #expect(await dataSource.state == .initial)
        #expect(observer.toldVersions.isEmpty)
    }
}

import AsyncDataSource
import Foundation
import RaceLab
import RaceLabTesting
import Synchronization
import Testing

/// The inconsistency kinds in `found`, for compact expectations.
func kinds(_ found: [Inconsistency]) -> [Inconsistency.Kind] {
    found.map(\.kind)
}

extension StateDataSource {
    /// The current state, after every update enqueued before the call.
    func settledState() -> State {
        let box = LockedValueBox<State?>(nil)
        let done = DispatchSemaphore(value: 0)
        read { state in
            box.withLockedValue { $0 = state }
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// `updates` updates from many threads at once, one observer added before them and one added with
/// notify-on-add half-way. Expects no update lost (`settledVersion`, called after the updates,
/// waits for the data source), the first observer told every state in order, and the second the
/// state current when it was added, then every later one in order.
func expectObserversHearEveryState(
    updates: Int,
    add: @Sendable (OrderCheckingObserver, _ notifyOnAdded: Bool) -> Void,
    update: @Sendable (_ index: Int) -> Void,
    settledVersion: () -> Int
) {
    let early = OrderCheckingObserver(expectsCurrentState: false)
    add(early, false)
    let late = OrderCheckingObserver(expectsCurrentState: true)
    DispatchQueue.concurrentPerform(iterations: updates) { index in
        update(index)
        if index == updates / 2 { add(late, true) }
    }
    #expect(settledVersion() == updates)
    #expect(early.toldVersions == Array(1...updates))
    #expect(late.problems(finalVersion: updates).isEmpty)
}

/// A data source whose updates and observers `expectObserversHearEveryState(of:updates:)` can drive
/// the same way: `add` and `update` as both designs have them, and the version once every update
/// enqueued so far has run.
protocol ObservedDataSource: Sendable {
    func add(observer: any StateObserver<CollectionState>, notifyOnAdded: Bool)
    func update(_ update: @escaping @Sendable (CollectionState) -> CollectionState?)
    func settledVersion() -> Int
}

extension StateDataSource: ObservedDataSource where State == CollectionState {
    func settledVersion() -> Int {
        waitUntilIdle()
        return settledState().version
    }
}

extension AtomicPropertyDataSource: ObservedDataSource where State == CollectionState {
    func settledVersion() -> Int {
        waitUntilIdle()
        return state.version
    }
}

/// `expectObserversHearEveryState(updates:add:update:settledVersion:)` for a data source that adds
/// and updates the common way.
func expectObserversHearEveryState(of dataSource: some ObservedDataSource, updates: Int) {
    expectObserversHearEveryState(
        updates: updates,
        add: { dataSource.add(observer: $0, notifyOnAdded: $1) },
        update: { _ in dataSource.update { $0.next() } },
        settledVersion: { dataSource.settledVersion() }
    )
}

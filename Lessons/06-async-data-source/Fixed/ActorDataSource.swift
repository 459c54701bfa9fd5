/// The state-object design as an actor: the actor runs one method at a time, so `updateState`
/// reads the old state and installs the new one with nothing in between, and observers are told
/// in order.
///
/// `updateState` must not suspend: its closure is synchronous on purpose. An `await` between reading
/// the state and writing it back would let another call run in the gap (actor reentrancy, lesson 3),
/// the same lost update the barrier prevents in the GCD version. Unlike the GCD version, reads are
/// serial with everything else, and every caller `await`s: a reader suspends, no thread blocks.
public actor ActorDataSource<State: Sendable> {
    public private(set) var state: State
    private var observers: [any StateObserver<State>] = []

    public init(initialState: State) {
        state = initialState
    }

    /// Replaces the state with what `update` makes of it, or leaves it if `update` returns `nil`.
    public func updateState(_ update: @Sendable (State) -> State?) {
        guard let newState = update(state) else { return }
        state = newState
        for observer in observers {
            observer.dataSourceChanged(newState)
        }
    }

    /// Adds `observer`; with `notifyOnAdded` it is told the current state first, exactly once.
    public func add(observer: any StateObserver<State>, notifyOnAdded: Bool) {
        observers.append(observer)
        if notifyOnAdded { observer.dataSourceChanged(state) }
    }
}

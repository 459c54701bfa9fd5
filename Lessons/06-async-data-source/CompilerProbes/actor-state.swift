// Compiler probe · lesson 6 · actor-state
// The state object in an actor: one State replaced whole, read with one await. Accepted by Swift 6,
// which checks the isolation itself.

actor ActorDataSource {
    private(set) var state = State()

    func update(_ transform: @Sendable (State) -> State) {
        state = transform(state)
    }
}

func render(_ dataSource: ActorDataSource) async -> String {
    let state = await dataSource.state
    return state.header + state.items.joined()
}

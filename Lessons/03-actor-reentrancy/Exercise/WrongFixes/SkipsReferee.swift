// Not a fix (CI checks that it FAILS): dropping the `await` removes the reentrancy and the
// referee with it. The functional checks catch it: every add must ask the referee once.
actor Scoreboard {
    private var scores: [String: Int] = [:]
    init() {}
    func add(_ points: Int, to player: String) async { scores[player, default: 0] += points }
    func score(of player: String) -> Int { scores[player, default: 0] }
    var total: Int { scores.values.reduce(0, +) }
}

// A common wrong fix for exercise 3 (CI checks that it FAILS): read the score before the await,
// and write it back only if it did not change meanwhile. Updates that did change it are dropped
// instead of overwritten: the points are lost all the same.
actor Scoreboard {
    private var scores: [String: Int] = [:]
    init() {}
    func add(_ points: Int, to player: String) async {
        let current = scores[player, default: 0]
        let approved = await Referee.approve(points)
        if scores[player, default: 0] == current {
            scores[player] = current + approved
        }
    }
    func score(of player: String) -> Int { scores[player, default: 0] }
    var total: Int { scores.values.reduce(0, +) }
}

// Exercise 3: make `Scoreboard` keep every point.
//
// `Scoreboard` is an actor, so no two of its methods run at the same time and the compiler has
// nothing to say. Yet when many tasks call `add(_:to:)` at once, points go missing. Every add must
// still be approved by the referee (`await Referee.approve(points)`, which suspends) and must count
// the points the referee returns. Fix `add` so that no approved point is ever lost.
//
// Rules:
// - Keep the API: `init()`, `add(_:to:) async`, `score(of:)`, `total`.
// - Call `await Referee.approve(points)` exactly once per add, and add what it returns.
//
// Check your fix:   make exercise-3        (PASS, or FAIL with how many points were lost)
// Hints, one at a time: Lessons/03-actor-reentrancy/Exercise/hints.md
// Start over:       make exercise-3-reset
import RaceLab

actor Scoreboard {
    private var scores: [String: Int] = [:]

    init() {}

    func add(_ points: Int, to player: String) async {
        let current = scores[player, default: 0]
        let approved = await Referee.approve(points)
        scores[player] = current + approved
    }

    func score(of player: String) -> Int {
        scores[player, default: 0]
    }

    var total: Int {
        scores.values.reduce(0, +)
    }
}

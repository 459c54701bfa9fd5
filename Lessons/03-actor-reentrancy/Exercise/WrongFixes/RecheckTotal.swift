// expect-diagnosis: recheck-other
// A wrong fix for exercise 3 (CI checks that it FAILS, and that the checker reads it as a re-check
// of something other than the score): compare the total before and after the await, and write
// `current + approved` (or a `max` merge with it) on both paths. The total says nothing about
// whether `current`, read before the await, is still this player's score: points are lost as in
// the starter.
import RaceLab

actor Scoreboard {
    private var scores: [String: Int] = [:]

    init() {}

    func add(_ points: Int, to player: String) async {
        let current = scores[player, default: 0]
        let totalBefore = total
        let approved = await Referee.approve(points)
        // Only write if nobody scored for anyone while we waited; otherwise write ours anyway
        if total == totalBefore {
            scores[player] = current + approved
        } else {
            scores[player] = max(current + approved, scores[player, default: 0])
        }
    }

    func score(of player: String) -> Int {
        scores[player, default: 0]
    }

    var total: Int {
        scores.values.reduce(0, +)
    }
}

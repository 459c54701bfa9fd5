// Exercise 3, reference solution: await first, then read and write with no suspension in between.
// Everything after the `await` runs on the actor without interruption, so it sees every add that
// finished while this one was suspended.
import RaceLab

actor Scoreboard {
    private var scores: [String: Int] = [:]

    init() {}

    func add(_ points: Int, to player: String) async {
        let approved = await Referee.approve(points)
        scores[player, default: 0] += approved
    }

    func score(of player: String) -> Int {
        scores[player, default: 0]
    }

    var total: Int {
        scores.values.reduce(0, +)
    }
}

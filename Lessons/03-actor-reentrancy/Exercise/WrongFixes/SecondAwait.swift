// expect-diagnosis: stale-across-await
// A wrong fix for exercise 3 (CI checks that it FAILS, read from the code): the score is read after
// the referee's `await`, but another `await` (an audit actor) comes before the write, which then
// writes back a value other adds may have changed meanwhile. The run pauses only at the referee.
import RaceLab

/// Where adds are reported (a suspension, like any call to another actor).
actor Audit {
    static let shared = Audit()
    private(set) var entries = 0
    func record() { entries += 1 }
}

actor Scoreboard {
    private var scores: [String: Int] = [:]

    init() {}

    func add(_ points: Int, to player: String) async {
        let approved = await Referee.approve(points)
        let updated = scores[player, default: 0] + approved
        await Audit.shared.record()
        scores[player] = updated
    }

    func score(of player: String) -> Int {
        scores[player, default: 0]
    }

    var total: Int {
        scores.values.reduce(0, +)
    }
}

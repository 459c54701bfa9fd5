// expect-diagnosis: blocking-across-await
// A hang (CI checks that it FAILS by running out of time, with the cause read from the code): an
// `NSLock` taken and released in synchronous helpers, `enter()` and `leave()`, around the body of
// `add`. The compiler sees no `lock()` in the async function, so it compiles; one add holds the
// lock across the referee's `await`, the next blocks the actor's thread in `enter()`, and the
// first never resumes to `leave()`. The checker names `enter()` and its `lock.lock()` first among
// the likely causes, and hint 3.
import Foundation
import RaceLab

actor Scoreboard {
    private var scores: [String: Int] = [:]

    init() {}

    private let lock = NSLock()
    private func enter() { lock.lock() }
    private func leave() { lock.unlock() }

    func add(_ points: Int, to player: String) async {
        enter()
        defer { leave() }
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

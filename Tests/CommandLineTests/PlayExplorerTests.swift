import Foundation
import RaceLab
import Testing

/// `Explorer.play` and `Explorer.explore(_:options:after:)`, the library under `racelab play`, on a
/// counter whose increment is a read and a write: two threads can lose one.
@Suite("Playing an exploration: a prefix replayed, then a person at every decision")
struct PlayExplorerTests {
    @Test("the prefix is replayed, then every further decision is asked, with the steps so far")
    func replaysThenAsks() throws {
        var asked: [PlayDecision] = []
        let played = try Explorer.play(Explorations.lostUpdate, threads: 2, prefix: [1]) { decision in
            asked.append(decision)
            return .run(decision.runnable.last!)
        }
        #expect(!played.stopped)
        #expect(asked.first?.steps.map(\.thread) == [1])
        #expect(asked.first?.steps.map(\.operation) == ["read counter"])
        #expect(asked.map(\.steps.count) == Array(1..<(1 + asked.count)))
        #expect(played.result.schedule.choices.first == 1)
        #expect(played.steps == played.result.steps)
        #expect(asked.allSatisfy { decision in decision.threads.count == 2 && decision.state == nil })
    }

    @Test("after a stop nothing more is asked; the steps kept are those before it")
    func stop() throws {
        var calls = 0
        let played = try Explorer.play(Explorations.lostUpdate, threads: 2, prefix: [0, 1]) { _ in
            calls += 1
            return .stop
        }
        #expect(calls == 1)
        #expect(played.stopped)
        #expect(played.steps.map(\.thread) == [0, 1])
        #expect(played.result.steps.count > played.steps.count)
    }

    @Test("a search after a prefix runs only schedules that begin with it")
    func searchAfterPrefix() throws {
        let racing = try Explorer.explore(Explorations.lostUpdate, options: .init(threads: 2), after: [0, 1])
        let failure = try #require(racing.failure)
        #expect(Array(failure.schedule.choices.prefix(2)) == [0, 1])
        #expect(failure.outcome == .invariantBroken("counter is 1"))
        // Thread 0 read and wrote before thread 1 read: nothing after that loses an increment.
        let safe = try Explorer.explore(Explorations.lostUpdate, options: .init(threads: 2), after: [0, 0])
        #expect(safe.failure == nil)
        #expect(safe.exhaustive)
    }
}

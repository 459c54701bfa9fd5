import Foundation
import RaceLab
import Testing

/// `@RaceShared`: a plain variable whose reads and writes are scheduling points under the explorer,
/// and nothing but the variable outside it.
@Suite("RaceShared: a plain shared variable the explorer sees")
struct RaceSharedTests {
    final class Counter: @unchecked Sendable {
        @RaceShared("counter") var value = 0
    }

    /// Each thread does `counter.value += 1` once, with no mark at all.
    static let unmarkedIncrement = Exploration(
        summary: "each thread does value += 1 on a @RaceShared Int; invariant: value == threads",
        makeState: { Counter() },
        thread: { counter, _ in counter.value += 1 },
        invariant: { counter, threads in
            counter.value == threads ? nil : "value is \(counter.value) after \(threads) increments"
        }
    )

    @Test("value += 1 is a read and a write, two points: marks off, both reads first lose an increment")
    func incrementIsTwoPoints() async throws {
        let options = ExplorationOptions(preemptions: 2, marks: false)
        let report = try await Explorer.explore(Self.unmarkedIncrement, options: options)
        #expect(report.exhaustive)
        // Two threads × (read, write): 6 orders, of which the 2 serial ones keep both increments.
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 4)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("value is 1 after 2 increments"))
        #expect(failure.steps.map(\.operation) == ["read counter", "read counter", "write counter", "write counter"])
        for _ in 0..<100 {
            let replay = try await Explorer.replay(Self.unmarkedIncrement, schedule: failure.schedule, options: options)
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test("a serial schedule keeps every increment")
    func serialScheduleKeepsThem() async throws {
        let result = try await Explorer.replay(
            Self.unmarkedIncrement,
            schedule: Schedule(threads: 2, choices: [0, 0, 1, 1]),
            options: .init(marks: false)
        )
        #expect(result.outcome == .passed)
    }

    @Test("outside the explorer it is the plain variable: reads see writes, and nothing pauses")
    func outsideTheExplorer() {
        let counter = Counter()
        for _ in 0..<1_000 { counter.value += 1 }
        #expect(counter.value == 1_000)
        let list = RaceSharedList()
        list.items.append(1)
        list.items.append(2)
        #expect(list.items == [1, 2])
    }

    /// A wrapped property in a struct compiles and reads back what was written (a mutating append
    /// is one read and one write); copies of the struct would share the box.
    struct RaceSharedList {
        @RaceShared("items") var items: [Int] = []
    }
}

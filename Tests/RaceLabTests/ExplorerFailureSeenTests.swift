import Foundation
import RaceLab
import Testing

/// `Race.failureSeen`: the explorer keeps the first failure a program's code says it saw, with the
/// step it was said in, and the failing schedule marks that step; a program that says nothing gets
/// no mark.
@Suite("Explorer: the step at which a failure was first seen")
struct ExplorerFailureSeenTests {
    final class Counter: @unchecked Sendable {
        var value = 0
    }

    struct Thrown: Error {}

    /// counter += 1 as a read, a window and a write, then one more step. With `noticing`, a writer
    /// that finds the counter moved since its read says so, where it writes; `inSetUp` says a
    /// failure in each thread's code before its first scheduling point, where no step runs.
    static func lostUpdate(noticing: Bool, inSetUp: Bool = false) -> Exploration {
        Exploration(
            summary: "each thread increments a counter (noticing: \(noticing), in set-up: \(inSetUp))",
            makeState: { Counter() },
            thread: { counter, index in
                if inSetUp { Race.failureSeen("said before any step by thread \(index)") }
                Race.step("read counter")
                let read = counter.value
                Race.window("write counter")
                if noticing && counter.value != read {
                    Race.failureSeen("thread \(index) read \(read), the counter now holds \(counter.value)")
                }
                counter.value = read + 1
                Race.step("done")
            },
            invariant: { counter, threads in
                counter.value == threads ? nil : "counter is \(counter.value), expected \(threads)"
            }
        )
    }

    /// Both reads, then thread 0's write, then thread 1's, which finds the counter moved (step 4).
    static let interleaved = Schedule(threads: 2, choices: [0, 1, 0, 1, 0, 1])

    @Test("the step, thread and words of the first failure seen are kept, as that execution ran them")
    func stampsTheStep() async throws {
        let result = try await Explorer.replay(Self.lostUpdate(noticing: true), schedule: Self.interleaved)
        #expect(result.outcome == .invariantBroken("counter is 1, expected 2"))
        #expect(result.steps[3].thread == 1 && result.steps[3].operation == "write counter")
        #expect(result.failureSeen == FailureSeen(step: 4, thread: 1, what: "thread 1 read 0, the counter now holds 1"))
        // A serial schedule sees nothing and fails nothing.
        let serial = try await Explorer.replay(
            Self.lostUpdate(noticing: true),
            schedule: Schedule(threads: 2, choices: [0, 0, 0, 1, 1, 1])
        )
        #expect(serial.outcome == .passed)
        #expect(serial.failureSeen == nil)
    }

    @Test("code that says nothing, or says it outside a step, gets no step: none is guessed")
    func saysNothingWithoutAStep() async throws {
        for exploration in [Self.lostUpdate(noticing: false), Self.lostUpdate(noticing: false, inSetUp: true)] {
            let result = try await Explorer.replay(exploration, schedule: Self.interleaved)
            #expect(result.outcome == .invariantBroken("counter is 1, expected 2"))
            #expect(result.failureSeen == nil)
            let entry = VariantExploration(name: "buggy", kind: .buggy, replayOf: result)
            #expect(entry.failure?.failureSeen == nil)
            let text = entry.text(heading: "h", verbose: false)
            #expect(!text.contains("seen broken"))
            #expect(!text.contains("✗"))
            let json = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
            #expect(!json.contains("failureSeen"))
        }
    }

    @Test("the failing schedule marks the row, says what was seen, and its JSON carries the step")
    func reportsTheStep() async throws {
        let report = try await Explorer.explore(Self.lostUpdate(noticing: true), options: .init(preemptions: 2))
        let failure = try #require(report.failure)
        let seen = try #require(failure.failureSeen)
        // Whichever shortest schedule is kept, the second write is the one that finds the counter moved.
        #expect(failure.steps[seen.step - 1].operation == "write counter")
        #expect(failure.steps.filter { $0.operation == "write counter" }.count == 2)
        #expect(failure.steps.firstIndex { $0.operation == "write counter" }! < seen.step - 1)

        let result = try await Explorer.replay(Self.lostUpdate(noticing: true), schedule: Self.interleaved)
        let entry = VariantExploration(name: "buggy", kind: .buggy, replayOf: result)
        #expect(entry.failure?.failureSeen == result.failureSeen)
        let lines = entry.text(heading: "h", verbose: false).split(separator: "\n").map(String.init)
        let rows = lines.filter { $0.contains("seen broken") }
        #expect(rows.count == 2)
        // The title says where, the row is marked.
        #expect(rows.last?.hasPrefix("       4") == true)
        #expect(rows.last?.hasSuffix("write counter  ✗ seen broken") == true)
        #expect(
            lines.contains(
                "  FAILING SCHEDULE (6 steps; seen broken at step 4 ✗: thread 1 read 0, the counter now holds 1)"
            )
        )
        #expect(lines.allSatisfy { $0.count <= reportWidth })
        let json = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        #expect(json.contains(#""failureSeen":{"#))
        #expect(json.contains(#""step":4"#))
    }

    @Test("a failure that is no broken invariant is not marked by what was seen")
    func onlyForABrokenInvariant() async throws {
        let exploration = Exploration(
            summary: "thread 0 sees a failure, then throws",
            defaultThreads: 1,
            makeState: { Counter() },
            thread: { _, _ in
                Race.step("look")
                Race.failureSeen("something")
                throw Thrown()
            },
            invariant: { _, _ in nil }
        )
        .treatingErrorsAsFailures()
        let result = try await Explorer.replay(exploration, schedule: Schedule(threads: 1, choices: [0]))
        #expect(result.isFailure)
        #expect(result.failureSeen == FailureSeen(step: 1, thread: 0, what: "something"))
        #expect(VariantExploration(name: "buggy", kind: .buggy, replayOf: result).failure?.failureSeen == nil)
    }

    @Test("playing, the decision after the step that saw the failure carries it")
    func playSaysItAtTheStep() throws {
        var seenAt: [Int: FailureSeen?] = [:]
        var moves = Self.interleaved.choices.makeIterator()
        let played = try Explorer.play(Self.lostUpdate(noticing: true), threads: 2, prefix: []) { decision in
            seenAt[decision.steps.count] = decision.failureSeen
            return moves.next().map(PlayAnswer.run) ?? .stop
        }
        #expect(played.result.schedule.choices == Self.interleaved.choices)
        #expect(seenAt[3] == .some(nil))
        #expect(seenAt[4]??.step == 4)
        #expect(seenAt[5]??.step == 4)
    }
}

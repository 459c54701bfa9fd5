import Foundation
import Testing

@testable import RaceLab

/// `RaceTask` takes the closures `Task { }` takes: throwing bodies, bodies isolated to the actor
/// they are created on, a priority. Each under the explorer (the body is a thread of its own) and
/// outside it (a plain task).
@Suite("RaceTask's closure forms")
struct RaceTaskFormsTests {
    struct Failed: Error, Equatable {}

    /// Counts on an actor; `bump` starts a task whose body touches the actor's state without `await`,
    /// as a `Task { }` created in an actor method may.
    actor Tally {
        var count = 0

        func bump() async -> Int {
            let task = RaceTask("bump task") {
                self.count += 1
                return self.count
            }
            return await task.value
        }
    }

    @Test("a throwing body: value rethrows its error, outside the explorer")
    func throwingOutside() async throws {
        let task = RaceTask<Int, any Error>("failing task") { throw Failed() }
        await #expect(throws: Failed.self) { try await task.value }
        let result = await task.result
        #expect(throws: Failed.self) { try result.get() }
        let fine = RaceTask("fine task") { () async throws -> Int in 7 }
        #expect(try await fine.value == 7)
    }

    @Test("a throwing body under the explorer: a thread of its own, and its error fails a schedule that declares it")
    func throwingExplored() async throws {
        let exploration = Exploration(
            summary: "a thread awaits a task that throws",
            defaultThreads: 1,
            makeState: { 0 },
            asyncThread: { _, _ in
                let task = RaceTask<Int, any Error>("failing task") {
                    Race.window("before the throw")
                    throw Failed()
                }
                _ = try await task.value
            },
            invariant: { _, _ in nil }
        ).treatingErrorsAsFailures()
        // RaceLab's own model: jobs are not points, the task is a thread and awaiting it a join.
        let report = try await Explorer.explore(exploration, options: .init(schedulesJobs: false))
        let failure = try #require(report.failure)
        #expect(failure.outcome == .threw(thread: 0, message: String(describing: Failed())))
        #expect(failure.spawned == [SpawnedThread(thread: 1, parent: 0, name: "failing task")])
        #expect(failure.steps.map(\.operation).contains("await failing task"))
    }

    @Test("a body isolated to the actor it is created on, explored: two callers, every bump kept")
    func actorIsolatedBody() async throws {
        let exploration = Exploration(
            summary: "two threads bump one tally through a task each",
            makeState: { Tally() },
            asyncThread: { tally, _ in _ = await tally.bump() },
            invariant: { tally, threads in
                let count = await tally.count
                return count == threads ? nil : "count is \(count)"
            }
        )
        // The actor hops of two tasks give more schedules than a test can visit (100,000 within
        // 2 preemptions do not finish the search): a sample of them checks that the form runs.
        let report = try await Explorer.explore(exploration, options: .init(schedules: 1_000))
        #expect(report.abandoned == nil)
        #expect(report.failingSchedules == 0)
        #expect(report.schedules == 1_000)
        #expect(await Tally().bump() == 1)
    }

    @Test("a priority reaches the task")
    func priority() async {
        // The base priority: awaiting the task from a test's task may escalate its current one.
        let task = RaceTask("prioritised", priority: .low) { Task.basePriority }
        #expect(await task.value == .low)
    }
}

import Foundation
import RaceLab
import Testing

/// Small programs whose schedules can be counted by hand, run under the schedule explorer.
@Suite("Schedule explorer")
struct ExplorerTests {
    /// A box for the programs' shared state: the explorer runs one logical thread at a time, so
    /// plain fields are enough (that is the point of the baton).
    final class Shared: @unchecked Sendable {
        var counter = 0
        var flag = false
        let first = RaceLock("first")
        let second = RaceLock("second")
    }

    /// Each thread performs `steps` scheduling points and touches nothing shared.
    static func independent(steps: Int, threads: Int = 2) -> Exploration {
        Exploration(
            summary: "\(threads) threads, \(steps) steps each",
            defaultThreads: threads,
            makeState: { Shared() },
            thread: { _, _ in
                for _ in 0..<steps { Race.step("step") }
            },
            invariant: { _, _ in nil }
        )
    }

    /// Each thread runs `increment` once on a shared counter; the invariant: no increment lost.
    static func counterExploration(
        _ summary: String,
        increment: @escaping @Sendable (Shared) -> Void
    ) -> Exploration {
        Exploration(
            summary: summary + "; invariant: counter == threads",
            makeState: { Shared() },
            thread: { shared, _ in increment(shared) },
            invariant: { shared, threads in
                shared.counter == threads ? nil : "counter is \(shared.counter), expected \(threads)"
            }
        )
    }

    /// counter += 1 as a read, a window and a write: the lost update.
    static let lostUpdate = counterExploration("each thread increments a counter") { shared in
        Race.step("read counter")
        let value = shared.counter
        Race.window("write counter")
        shared.counter = value + 1
    }

    /// counter += 1 under a lock: no schedule loses an increment.
    static let lockedIncrement = counterExploration("each thread increments a counter under a lock") { shared in
        shared.first.withLock {
            let value = shared.counter
            Race.window("write counter")
            shared.counter = value + 1
        }
    }

    /// Two locks taken in opposite orders.
    static let lockOrder = Exploration(
        summary: "thread 0 locks first then second; thread 1 second then first",
        makeState: { Shared() },
        thread: { shared, index in
            let (outer, inner) = index == 0 ? (shared.first, shared.second) : (shared.second, shared.first)
            outer.withLock { inner.withLock { shared.counter += 1 } }
        },
        invariant: { _, _ in nil }
    )

    @Test(
        "two threads of two steps have C(4,2) = 6 interleavings; 4 with one preemption, 2 with none",
        arguments: [(2, 6), (1, 4), (0, 2)]
    )
    func countsInterleavings(preemptions: Int, expected: Int) async throws {
        let report = try await Explorer.explore(Self.independent(steps: 2), options: .init(preemptions: preemptions))
        #expect(report.exhaustive)
        #expect(report.schedules == expected)
        #expect(report.failingSchedules == 0)
    }

    @Test("three threads of one step each have 3! = 6 orders, none of them a preemption")
    func countsOrders() async throws {
        let report = try await Explorer.explore(Self.independent(steps: 1, threads: 3), options: .init(preemptions: 0))
        #expect(report.exhaustive)
        #expect(report.schedules == 6)
    }

    @Test("a lost update is found, and only in the schedules where both reads come before either write")
    func findsLostUpdate() async throws {
        let report = try await Explorer.explore(Self.lostUpdate, options: .init(preemptions: 2))
        // Of the 6 interleavings of (read, write) × 2, only the 2 serial ones keep both increments.
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 4)
        let failure = try #require(report.failure)
        #expect(failure.steps.count == 4)
        #expect(failure.steps.prefix(2).allSatisfy { $0.operation == "read counter" })
        #expect(failure.outcome == .invariantBroken("counter is 1, expected 2"))
    }

    @Test("a lock held across a window keeps every schedule correct; waiting for it is no preemption")
    func lockExcludes() async throws {
        let report = try await Explorer.explore(Self.lockedIncrement, options: .init(preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.failingSchedules == 0)
        // Each thread is (lock, write). Once one thread holds the lock the other cannot run at all
        // (its next step is the lock), so the only choice is who locks first: 2 schedules.
        #expect(report.schedules == 2)
    }

    @Test("replaying a failing schedule fails the same way every time")
    func replayRoundTrip() async throws {
        let schedule = Schedule(threads: 2, choices: [0, 1, 0, 1])
        #expect(schedule.replayString == "2:0.1.0.1")
        for _ in 0..<100 {
            let result = try await Explorer.replay(Self.lostUpdate, schedule: schedule)
            #expect(result.schedule.choices == schedule.choices)
            #expect(result.schedule.program == Self.lostUpdate.fingerprint(marks: true))
            #expect(result.outcome == .invariantBroken("counter is 1, expected 2"))
        }
        let serial = try await Explorer.replay(Self.lostUpdate, schedule: Schedule(threads: 2, choices: [0, 0, 1, 1]))
        #expect(serial.outcome == .passed)
    }

    @Test("malformed replay strings are refused")
    func parsesReplayStrings() {
        #expect(Schedule(replayString: "2:0.-1@0a1b2c") == nil)
        #expect(Schedule(replayString: "0.1@0a1b2c") == nil)
        #expect(Schedule(replayString: "x:0@0a1b2c") == nil)
        #expect(Schedule(replayString: "3:@0a1b2c") == Schedule(threads: 3, choices: [], program: "0a1b2c"))
    }

    @Test("two locks taken in opposite orders deadlock, and the report says where each thread waits")
    func findsDeadlock() async throws {
        let report = try await Explorer.explore(Self.lockOrder, options: .init(preemptions: 2))
        #expect(report.exhaustive)
        let failure = try #require(report.failure)
        // The deadlock: each thread holds its outer lock and waits for the other's.
        #expect(
            failure.outcome
                == .deadlock([
                    ThreadPosition(thread: 0, waitingFor: "lock second", heldBy: 1),
                    ThreadPosition(thread: 1, waitingFor: "lock first", heldBy: 0),
                ])
        )
        #expect(failure.steps.map(\.operation) == ["lock first", "lock second"])
        let replayed = try await Explorer.replay(Self.lockOrder, schedule: failure.schedule)
        #expect(replayed.outcome == failure.outcome)
        // Without preemptions each thread takes both locks before the other starts: no deadlock.
        let serial = try await Explorer.explore(Self.lockOrder, options: .init(preemptions: 0))
        #expect(serial.failingSchedules == 0)
    }

    @Test("a thread spinning on a flag nobody sets yet is stopped by the step bound: unfinished, not failing")
    func stepBoundCatchesSpinning() async throws {
        let spin = Exploration(
            summary: "thread 0 polls a flag thread 1 sets",
            makeState: { Shared() },
            thread: { shared, index in
                if index == 0 {
                    while !shared.flag { Race.step("poll flag") }
                } else {
                    Race.step("set flag")
                    shared.flag = true
                }
            },
            invariant: { _, _ in nil }
        )
        let report = try await Explorer.explore(spin, options: .init(preemptions: 0, stepBound: 50))
        #expect(report.failure == nil)
        #expect(report.firstUnfinished?.outcome == .stepBoundExceeded(50))
        // Run freely after the bound, thread 1 sets the flag and both finish: the search goes on.
        #expect(report.abandoned == nil)
    }

    @Test(
        "pct and random find the lost update and report their hit rate",
        arguments: [ExplorationOptions.Strategy.pct, .random]
    )
    func samplingStrategies(strategy: ExplorationOptions.Strategy) async throws {
        let report = try await Explorer.explore(
            Self.lostUpdate,
            options: .init(strategy: strategy, preemptions: 1, schedules: 200, seed: 7)
        )
        #expect(report.schedules == 200)
        #expect(report.failingSchedules > 0)
        if strategy == .pct {
            let guarantee = try #require(report.pctGuarantee)
            #expect(report.hitRate >= guarantee / 2)
        }
    }

    // MARK: Threads started while the program runs

    /// Each thread hands one callback to a global queue; the callback is a logical thread of its own.
    static let handOffs = Exploration(
        summary: "each thread hands a callback to a queue",
        makeState: { Shared() },
        thread: { shared, _ in
            Race.step("hand off")
            let callback = Race.handOff("callback")
            DispatchQueue.global().async {
                callback.run { shared.counter += 1 }
            }
        },
        invariant: { shared, threads in shared.counter == threads ? nil : "counter is \(shared.counter)" }
    )

    @Test("two hand-offs: 4 one-step threads, each callback after its hand-off, give 4!/(2!·2!) = 6 orders")
    func countsHandOffOrders() async throws {
        // Each step ends its thread (a hand-off returns, a callback finishes), so no switch is a
        // preemption: all 6 orders are there even with a bound of 0.
        let report = try await Explorer.explore(Self.handOffs, options: .init(preemptions: 0))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules == 6)
        #expect(report.failingSchedules == 0)
        // A callback gets the next free id when it is handed off: in 2:1.2.0.3, thread 1 hands off
        // first, so its callback is thread 2.
        let schedule = Schedule(threads: 2, choices: [1, 2, 0, 3])
        let result = try await Explorer.replay(Self.handOffs, schedule: schedule)
        #expect(
            result.spawned == [
                SpawnedThread(thread: 2, parent: 1, name: "callback"),
                SpawnedThread(thread: 3, parent: 0, name: "callback"),
            ]
        )
        #expect(result.steps.map(\.operation) == ["hand off", "callback", "hand off", "callback"])
    }

    /// One thread starts a task of two steps, does one step of its own, then awaits the task.
    static let awaitedTask = Exploration(
        summary: "a task runs beside its creator, which then awaits it",
        defaultThreads: 1,
        makeState: { Shared() },
        asyncThread: { shared, _ in
            let child = RaceTask("child") {
                Race.window("child work")
                return 1
            }
            Race.step("parent work")
            shared.counter = await child.value
        },
        invariant: { shared, _ in shared.counter == 1 ? nil : "the task's value was not received" }
    )

    @Test("awaiting a RaceTask waits for its thread: 'parent work' takes 3 places among the task's 2 steps")
    func joinsTask() async throws {
        // RaceTask's own model: jobs are not points, the task is a thread and awaiting it a join.
        let unbounded = try await Explorer.explore(
            Self.awaitedTask,
            options: .init(preemptions: 2, schedulesJobs: false)
        )
        #expect(unbounded.exhaustive)
        #expect(unbounded.abandoned == nil)
        #expect(unbounded.schedules == 3)
        #expect(unbounded.failingSchedules == 0)
        // Only "child, parent work, child work" switches away from a thread that could go on.
        let bounded = try await Explorer.explore(
            Self.awaitedTask,
            options: .init(preemptions: 0, schedulesJobs: false)
        )
        #expect(bounded.schedules == 2)
        let result = try await Explorer.replay(
            Self.awaitedTask,
            schedule: Schedule(threads: 1, choices: [1, 0, 1, 0]),
            options: .init(schedulesJobs: false)
        )
        #expect(result.steps.map(\.operation) == ["child", "parent work", "child work", "await child"])
        #expect(result.outcome == .passed)
    }

    @Test("a task that needs a lock its awaiting creator holds: a deadlock, with who waits for whom")
    func joinDeadlock() async throws {
        let exploration = Exploration(
            summary: "thread 0 holds a lock while it awaits a task that takes the lock",
            defaultThreads: 1,
            makeState: { Shared() },
            asyncThread: { shared, _ in
                shared.first.lock()
                let child = RaceTask("child") { shared.first.withLock { shared.counter += 1 } }
                _ = await child.value
                shared.first.unlock()
            },
            invariant: { _, _ in nil }
        )
        // RaceTask's own model (jobs are not points): the join is a point that knows whom it waits for.
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2, schedulesJobs: false))
        #expect(report.schedules == 1)
        #expect(
            report.failure?.outcome
                == .deadlock([
                    ThreadPosition(thread: 0, waitingFor: "await child", heldBy: 1),
                    ThreadPosition(thread: 1, waitingFor: "lock first", heldBy: 0),
                ])
        )
    }

    // MARK: Queues

    /// Each thread appends its index twice to a log, as two async items on one queue; its marks name
    /// every window.
    static func queueLog(concurrent: Bool, barrier: Bool) -> Exploration {
        Exploration(
            summary: "each thread submits two items that append to a log",
            defaultThreads: 2,
            makeState: { (queue: RaceQueue(label: "log", attributes: concurrent ? .concurrent : []), log: LogBox()) },
            thread: { state, index in
                Race.step("submit")
                for step in 0..<2 {
                    state.queue.async(flags: barrier ? .barrier : []) {
                        Race.window("append")
                        state.log.append(10 * index + step)
                    }
                }
            },
            invariant: { state, _ in
                // Each thread's own items must stay in submission order on a serial queue.
                let log = state.log.entries
                let inOrder = [0, 1].allSatisfy { thread in
                    let mine = log.filter { $0 / 10 == thread }
                    return mine == mine.sorted()
                }
                return inOrder ? nil : "items ran out of order: \(log)"
            }
        )
        // The counts below are of the marked points: the submissions are no points of their own.
        .markingEveryWindow()
    }

    final class LogBox: @unchecked Sendable {
        var entries: [Int] = []
        func append(_ value: Int) { entries.append(value) }
    }

    @Test("a serial queue runs its items one at a time, in submission order: every schedule keeps each thread's order")
    func serialQueueOrder() async throws {
        let report = try await Explorer.explore(
            Self.queueLog(concurrent: false, barrier: false),
            options: .init(preemptions: 3)
        )
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.failingSchedules == 0)
        // The four items (two steps each: `log item`, `append`) run one after the other, the first
        // submitter's two before the other's. What varies is who submits first (2) and where the
        // second submit falls among the first submitter's 4 item steps, before its own items (5).
        #expect(report.schedules == 10)
    }

    @Test("items of a concurrent queue overlap and finish in any order; barriers keep them in order")
    func concurrentQueueOverlaps() async throws {
        let concurrent = try await Explorer.explore(
            Self.queueLog(concurrent: true, barrier: false),
            options: .init(preemptions: 2)
        )
        #expect(concurrent.failingSchedules > 0)
        let barriers = try await Explorer.explore(
            Self.queueLog(concurrent: true, barrier: true),
            options: .init(preemptions: 3)
        )
        #expect(barriers.exhaustive)
        #expect(barriers.failingSchedules == 0)
        #expect(barriers.schedules == 10)
    }

    @Test("sync onto the serial queue the thread is running on is a deadlock, reported with the item it waits behind")
    func syncOntoOwnQueueDeadlocks() async throws {
        let exploration = Exploration(
            summary: "an item on a serial queue calls sync on the same queue",
            defaultThreads: 1,
            makeState: { RaceQueue(label: "ui") },
            thread: { queue, _ in
                queue.sync {
                    queue.sync {}
                }
            },
            invariant: { _, _ in nil }
        )
        let report = try await Explorer.explore(exploration)
        #expect(report.schedules == 1)
        #expect(report.failure?.outcome == .deadlock([ThreadPosition(thread: 0, waitingFor: "sync ui", heldBy: 0)]))
    }
}

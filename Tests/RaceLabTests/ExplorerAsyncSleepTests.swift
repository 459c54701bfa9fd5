import Foundation
import Testing

@testable import RaceLab

// Linux only: on Swift 6.3 a sleep in a plain Task that ran inside an actor's queue is a choice
// only through `SleepCatchingDefaultExecutor`, which is Linux-only; and `Task(name:)` needs macOS 26
// while the package supports macOS 15.
#if os(Linux)

/// A ticket counter written as anyone would: a plain actor whose `book()` reads, waits for the
/// network (`Task.sleep`) and writes back what it read. No RaceLab type and no mark.
actor PlainCounter {
    private(set) var booked = 0

    /// hazard: actor reentrancy. Another booking that runs while this one sleeps is lost.
    func book() async {
        let read = booked
        try? await Task.sleep(for: .seconds(1))
        booked = read + 1
    }

    /// The same bug, waiting the way `Task.sleep` does on runtimes before Swift 6.2: a continuation
    /// resumed by a job handed to the runtime's delayed global enqueue, here 1,000 s away.
    func bookWaitingTheOldWay() async {
        let read = booked
        await withUnsafeContinuation { continuation in
            enqueueGlobalWithDelay(1_000_000_000_000, createNullaryContinuationJob(priority: 0, continuation))
        }
        booked = read + 1
    }

    /// The fixed twin: waits for the network first, then reads and writes in one job.
    func bookAfterConfirming() async {
        try? await Task.sleep(for: .seconds(1))
        booked += 1
    }
}

@_silgen_name("swift_task_createNullaryContinuationJob")
private func createNullaryContinuationJob(priority: Int, _ continuation: UnsafeContinuation<Void, Never>) -> UnownedJob

@_silgen_name("swift_task_enqueueGlobalWithDelay")
private func enqueueGlobalWithDelay(_ nanoseconds: UInt64, _ job: UnownedJob)

/// Sleeps in a plain `Task { }`: it prefers no executor, and when it runs inside the actor's queue
/// the runtime hands its sleep to the default executor (`SleepCatchingDefaultExecutor`), not to the
/// explorer's. The failing schedule needs a booking to sleep while the other one reads.
@Suite("The explorer with marks off: sleeps in plain tasks")
struct ExplorerAsyncSleepTests {
    /// No preemption is needed: a sleep ends a job, so the other booking runs there unforced.
    static let options = ExplorationOptions(preemptions: 0, stallTimeout: 120, marks: false)

    /// Each thread books once, in a plain `Task` it awaits.
    static func bookings(fixed: Bool, named: Bool = false, oldWay: Bool = false) -> Exploration {
        Exploration(
            summary: "each thread books once, in a plain Task it awaits; invariant: one booking per thread",
            makeState: { PlainCounter() },
            asyncThread: { counter, index in
                let name = named ? "booking \(index)" : nil
                await Task(name: name) {
                    if fixed {
                        await counter.bookAfterConfirming()
                    } else if oldWay {
                        await counter.bookWaitingTheOldWay()
                    } else {
                        await counter.book()
                    }
                }.value
            },
            invariant: { counter, threads in
                let booked = await counter.booked
                return booked == threads ? nil : "booked \(booked), expected \(threads)"
            }
        )
    }

    @Test("a lost booking whose schedule needs the plain Tasks' sleeps is found and replays 100 of 100 times")
    func sleepInPlainTaskReplays() async throws {
        // The first failing schedule and 50 more: the search goes on past failures. The fixed
        // twin's search runs the same tree of schedules to its end.
        var options = Self.options
        options.schedulesAfterFailure = 50
        let failure = try await Explorer.expectFailureThatReplays(
            Self.bookings(fixed: false),
            options: options,
            outcome: .invariantBroken("booked 1, expected 2")
        )
        // Both sleeps were the explorer's threads, woken by its choice, not by a system timer.
        #expect(failure.spawned.filter { $0.name == "sleep" }.count == 2)
    }

    @Test("its fixed twin, which sleeps before it reads, has no failing schedule")
    func fixedTwinIsClean() async throws {
        try await Explorer.expectExhaustiveClean(Self.bookings(fixed: true), options: Self.options)
    }

    @Test("a task given a name (Task(name:)) is a thread of that name, and its resumes carry it")
    func namedTasks() async throws {
        // The first failing schedule is enough to read the names from.
        var options = Self.options
        options.schedulesAfterFailure = 0
        let report = try await Explorer.explore(Self.bookings(fixed: false, named: true), options: options)
        let failure = try #require(report.failure)
        #expect(Set(failure.spawned.map(\.name)).isSuperset(of: ["booking 0", "booking 1"]))
        // Known once the task has run: its start was enqueued by its creator, and is `start Task`.
        let operations = Set(failure.steps.map(\.operation))
        #expect(operations.isSuperset(of: ["start Task", "resume booking 0", "resume booking 1"]))
    }

    @Test("a job handed to the runtime's delayed global enqueue (Task.sleep before Swift 6.2) wakes as a choice")
    func runtimeDelayedEnqueue() async throws {
        // Were the job not taken, the wake-up would come in 1,000 s: the first schedule would
        // stall instead. The runtime calls its delay hook first; on Swift 6.3 a job the hook
        // passed on would then reach the wrapped default executor, so this passes by either layer
        // here (checked by disabling the hook's interception), and the hook alone matters on
        // runtimes before 6.2, where there is no wrapper. The first failing schedule and 50 more
        // each wake both sleeps through that enqueue.
        var options = Self.options
        options.stallTimeout = 20
        options.schedulesAfterFailure = 50
        let exploration = Self.bookings(fixed: false, oldWay: true)
        let report = try await Explorer.explore(exploration, options: options)
        #expect(report.abandoned == nil)
        #expect(report.stall == nil)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("booked 1, expected 2"))
        #expect(failure.spawned.filter { $0.name == "sleep" }.count == 2)
        let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: options)
        #expect(replay.outcome == failure.outcome)
    }
}
#endif

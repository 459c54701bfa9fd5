import Foundation
import Testing

@testable import RaceLab

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

    /// The fixed twin: waits for the network first, then reads and writes in one job.
    func bookAfterConfirming() async {
        try? await Task.sleep(for: .seconds(1))
        booked += 1
    }
}

/// Sleeps in a plain `Task { }`: it prefers no executor, and when it runs inside the actor's queue
/// the runtime hands its sleep to the default executor (`SleepCatchingDefaultExecutor`), not to the
/// explorer's. The failing schedule needs a booking to sleep while the other one reads.
@Suite("The explorer with marks off: sleeps in plain tasks")
struct ExplorerAsyncSleepTests {
    /// No preemption is needed: a sleep ends a job, so the other booking runs there unforced.
    static let options = ExplorationOptions(preemptions: 0, stallTimeout: 120, marks: false)

    /// Each thread books once, in a plain `Task` it awaits.
    static func bookings(fixed: Bool, named: Bool = false) -> Exploration {
        Exploration(
            summary: "each thread books once, in a plain Task it awaits; invariant: one booking per thread",
            makeState: { PlainCounter() },
            asyncThread: { counter, index in
                let name = named ? "booking \(index)" : nil
                await Task(name: name) {
                    if fixed { await counter.bookAfterConfirming() } else { await counter.book() }
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
        let exploration = Self.bookings(fixed: false)
        let report = try await Explorer.explore(exploration, options: Self.options)
        #expect(report.abandoned == nil)
        let failure = try #require(report.failure)
        #expect(failure.outcome == .invariantBroken("booked 1, expected 2"))
        // Both sleeps were the explorer's threads, woken by its choice, not by a system timer.
        #expect(failure.spawned.filter { $0.name == "sleep" }.count == 2)
        var reproduced = 0
        for _ in 0..<100 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options)
            if !replay.diverged && replay.result.outcome == failure.outcome { reproduced += 1 }
        }
        #expect(reproduced == 100)
    }

    @Test("its fixed twin, which sleeps before it reads, has no failing schedule")
    func fixedTwinIsClean() async throws {
        let report = try await Explorer.explore(Self.bookings(fixed: true), options: Self.options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }

    @Test("a task given a name (Task(name:)) is a thread of that name, and its resumes carry it")
    func namedTasks() async throws {
        let report = try await Explorer.explore(Self.bookings(fixed: false, named: true), options: Self.options)
        let failure = try #require(report.failure)
        #expect(Set(failure.spawned.map(\.name)).isSuperset(of: ["booking 0", "booking 1"]))
        // Known once the task has run: its start was enqueued by its creator, and is `start Task`.
        let operations = Set(failure.steps.map(\.operation))
        #expect(operations.isSuperset(of: ["start Task", "resume booking 0", "resume booking 1"]))
    }
}

import Foundation
import Testing

@testable import RaceLab

/// The primitives behind the RaceLab switch's `Mutex`, `DispatchSemaphore` and `DispatchGroup`,
/// each under the explorer: a buggy use is found, a correct one explores clean having explored more
/// than one schedule; and the sync-get/async-barrier-set shape of `RaceQueue`, found unmarked.
@Suite("The switch's Mutex, semaphore and group, and RaceQueue's async submission, under the explorer")
struct SwitchPrimitiveModelTests {
    /// A counter and the state each shape keeps beside it.
    final class Shared: @unchecked Sendable {
        var value = 0
        var results: [Int] = []
        var seen: [Int] = []
    }

    static func exploration<State: Sendable>(
        _ summary: String,
        threads: Int = 2,
        _ makeState: @autoclosure @escaping @Sendable () -> State,
        thread: @escaping @Sendable (State, Int) -> Void,
        invariant: @escaping @Sendable (State, Int) -> String?
    ) -> Exploration {
        Exploration(
            summary: summary,
            defaultThreads: threads,
            makeState: makeState,
            thread: thread,
            invariant: invariant
        )
    }

    static func clean(_ report: ExplorationReport) {
        #expect(report.failingSchedules == 0)
        #expect(report.exhaustive)
        #expect(report.schedules > 1)
        #expect(report.notInterleaved == nil)
    }

    // MARK: - RaceMutex (`Mutex`, `OSAllocatedUnfairLock`)

    @Test("Mutex: a read and a write in two withLocks lose an increment; one withLock does not")
    func mutex() async throws {
        let split = Self.exploration("two withLocks", RaceMutex(0)) { mutex, _ in
            let seen = mutex.withLock { $0 }
            mutex.withLock { $0 = seen + 1 }
        } invariant: { mutex, threads in
            mutex.withLock { $0 } == threads ? nil : "lost an increment"
        }
        let found = try await Explorer.explore(split)
        #expect(found.failure?.outcome == .invariantBroken("lost an increment"))
        #expect(found.failure?.steps.first?.operation == "lock SwitchPrimitiveModelTests.swift:45")
        let whole = Self.exploration("one withLock", RaceMutex(0, name: "counter")) { mutex, _ in
            mutex.withLock { $0 += 1 }
        } invariant: { mutex, threads in
            mutex.withLock { $0 } == threads ? nil : "lost an increment"
        }
        Self.clean(try await Explorer.explore(whole))
    }

    @Test("Mutex: withLockIfAvailable is tried both while the lock is free and while another thread holds it")
    func mutexIfAvailable() async throws {
        // Thread 0 holds the lock across a window; thread 1 only tries it. Invariant: thread 1 got it.
        let exploration = Self.exploration("one holds, one tries", RaceMutex(0, name: "flag")) { mutex, index in
            if index == 0 {
                mutex.withLock { value in
                    Race.window("holding")
                    value += 0
                }
            } else {
                if mutex.withLockIfAvailable({ $0 += 1 }) == nil { return }
            }
        } invariant: { mutex, _ in
            mutex.withLock { $0 } == 1 ? nil : "the attempt found the lock held"
        }
        let report = try await Explorer.explore(exploration)
        #expect(report.exhaustive)
        #expect(report.failingSchedules > 0, "an attempt while thread 0 holds it fails")
        #expect(report.failingSchedules < report.schedules, "an attempt while it is free succeeds")
        #expect(report.failure?.steps.contains { $0.operation == "try lock flag" } == true)
    }

    @Test("OSAllocatedUnfairLock's initialisers and lock()/unlock() on RaceMutex")
    func unfairLockShape() async throws {
        let exploration = Self.guardedCounter(
            "lock and unlock",
            RaceMutex(),
            enter: { $0.lock() },
            leave: { $0.unlock() }
        )
        Self.clean(try await Explorer.explore(exploration))
        let valued = RaceMutex(initialState: 3)
        #expect(valued.withLockUnchecked { $0 } == 3)
    }

    // MARK: - RaceSemaphore (`DispatchSemaphore`)

    /// Each thread increments a counter between `enter` and `leave` on the guard `makeGuard` makes.
    static func guardedCounter<Guard: Sendable>(
        _ summary: String,
        _ makeGuard: @autoclosure @escaping @Sendable () -> Guard,
        enter: @escaping @Sendable (Guard) -> Void,
        leave: @escaping @Sendable (Guard) -> Void
    ) -> Exploration {
        exploration(summary, (makeGuard(), Shared())) { state, _ in
            enter(state.0)
            let seen = state.1.value
            Race.window("inside")
            state.1.value = seen + 1
            leave(state.0)
        } invariant: { state, threads in
            state.1.value == threads ? nil : "lost an increment"
        }
    }

    /// Each thread increments under a semaphore used as a lock, starting at `value`.
    static func semaphoreCounter(value: Int) -> Exploration {
        guardedCounter(
            "a semaphore of \(value) as a lock",
            RaceSemaphore(value: value, name: "gate"),
            enter: { $0.wait() },
            leave: { $0.signal() }
        )
    }

    @Test("DispatchSemaphore: a count of 2 lets two threads in and loses an increment; a count of 1 does not")
    func semaphore() async throws {
        let found = try await Explorer.explore(Self.semaphoreCounter(value: 2))
        #expect(found.failure?.outcome == .invariantBroken("lost an increment"))
        Self.clean(try await Explorer.explore(Self.semaphoreCounter(value: 1)))
    }

    @Test("DispatchSemaphore: a wait no thread signals is a deadlock; a wait with a timeout times out instead")
    func semaphoreWaits() async throws {
        let unsignalled = Self.exploration("both wait", RaceSemaphore(value: 0, name: "never")) { semaphore, _ in
            semaphore.wait()
        } invariant: { _, _ in
            nil
        }
        let report = try await Explorer.explore(unsignalled)
        guard case .deadlock(let positions) = report.failure?.outcome else {
            Issue.record("expected a deadlock, got \(String(describing: report.failure?.outcome))")
            return
        }
        #expect(positions.map(\.waitingFor) == ["wait never", "wait never"])
        // Thread 0 signals; thread 1 waits with a timeout: it times out when it runs first.
        let timed = Self.exploration("signal and a timed wait", (RaceSemaphore(value: 0, name: "ready"), Shared())) {
            state,
            index in
            if index == 0 {
                state.0.signal()
            } else {
                let result = state.0.wait(timeout: .now() + 1)
                state.1.results.append(result == .success ? 1 : 0)
            }
        } invariant: { state, _ in
            state.1.results == [1] ? nil : "timed out"
        }
        let timedReport = try await Explorer.explore(timed)
        #expect(timedReport.exhaustive)
        #expect(timedReport.failingSchedules > 0)
        #expect(timedReport.failingSchedules < timedReport.schedules)
    }

    // MARK: - RaceGroup (`DispatchGroup`)

    /// One thread submits two items to a concurrent queue in a group, then reads what they wrote,
    /// after `wait` when `waits`. The items are threads of their own.
    static func groupResults(waits: Bool) -> Exploration {
        exploration(
            waits ? "submit two, wait, read" : "submit two, read",
            threads: 1,
            (RaceGroup(name: "work"), RaceQueue(label: "work"), Shared())
        ) { state, _ in
            let (group, queue, shared) = state
            for item in 0..<2 {
                queue.async(group: group) { shared.results.append(item) }
            }
            if waits { group.wait() }
            Race.window("read")
            shared.seen = shared.results
        } invariant: { state, _ in
            state.2.seen.count == 2 ? nil : "read \(state.2.seen.count) of 2 results"
        }
    }

    @Test("DispatchGroup: reading before wait misses results; after wait sees both")
    func group() async throws {
        let found = try await Explorer.explore(Self.groupResults(waits: false))
        #expect(found.failingSchedules > 0)
        #expect(found.notInterleaved == nil)
        Self.clean(try await Explorer.explore(Self.groupResults(waits: true)))
    }

    @Test("DispatchGroup: notify runs its block once every entered item has left, in every order of the items")
    func groupNotify() async throws {
        // Two items on a concurrent queue, each in the group; notify's block must see both results.
        let exploration = Self.exploration(
            "two items in a group, then notify",
            threads: 1,
            (RaceGroup(name: "loads"), RaceQueue(label: "work", attributes: .concurrent), Shared())
        ) { state, _ in
            let (group, queue, shared) = state
            for item in 0..<2 {
                group.enter()
                queue.async {
                    Race.window("load")
                    shared.results.append(item)
                    group.leave()
                }
            }
            group.notify(queue: queue) { shared.seen = shared.results }
        } invariant: { state, _ in
            state.2.seen.count == 2 ? nil : "notify saw \(state.2.seen)"
        }
        Self.clean(try await Explorer.explore(exploration))
    }

    // MARK: - RaceQueue: a value read with sync, written back by an async barrier

    /// The sync-get/async-barrier-set dictionary, unmarked: each thread reads a count with `sync`
    /// and writes it back plus one with an `async` barrier (`fixed`: the whole update in the barrier).
    final class Counts: @unchecked Sendable {
        let queue = RaceQueue(label: "counts", attributes: .concurrent)
        var counts: [String: Int] = [:]
        func get(_ key: String) -> Int { queue.sync { counts[key] ?? 0 } }
        func set(_ key: String, _ value: Int) { queue.async(flags: .barrier) { self.counts[key] = value } }
        func increment(_ key: String) { queue.async(flags: .barrier) { self.counts[key, default: 0] += 1 } }
    }

    static func counts(fixed: Bool) -> Exploration {
        Exploration(
            summary: fixed ? "each thread increments in one barrier" : "each thread gets, then sets plus one",
            makeState: { Counts() },
            thread: { counts, _ in
                if fixed { counts.increment("a") } else { counts.set("a", counts.get("a") + 1) }
            },
            invariant: { counts, threads in
                let value = counts.get("a")
                return value == threads ? nil : "count is \(value)"
            }
        )
    }

    @Test("sync-get/async-barrier-set, unmarked, default options: the lost update is found; the fix is clean")
    func syncGetAsyncSet() async throws {
        let found = try await Explorer.explore(Self.counts(fixed: false))
        #expect(found.failure?.outcome == .invariantBroken("count is 1"))
        #expect(found.failure?.steps.contains { $0.operation == "async barrier counts" } == true)
        Self.clean(try await Explorer.explore(Self.counts(fixed: true)))
    }

    @Test("an exploration that declares its marks name every window leaves the submission in its step")
    func declaredMarksHideTheSubmission() async throws {
        let declared = try await Explorer.explore(Self.counts(fixed: false).markingEveryWindow())
        #expect(declared.failingSchedules == 0, "the declaration is the user's: no window is marked here")
        let marksOff = try await Explorer.explore(
            Self.counts(fixed: false).markingEveryWindow(),
            options: .init(marks: false)
        )
        #expect(marksOff.failingSchedules > 0)
    }
}

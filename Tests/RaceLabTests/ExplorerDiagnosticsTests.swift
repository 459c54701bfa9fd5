import Foundation
import Synchronization
import Testing

@testable import RaceLab

/// Each diagnostic the explorer gives, provoked: a thread stuck beyond the stall limit, with the
/// likely cause and the fix, and the warnings for explorations that explore nothing.
///
/// A stuck thread is provoked by blocking it on something the test holds (a lock, a semaphore, a
/// file lock, an empty pipe, a flag), and released by the test once the explorer has given up on
/// it: it is stuck for as long as the test wants, so the outcome does not depend on timing. The
/// stall limit only has to be long enough for the other threads to reach their first point.
@Suite("Explorer diagnostics")
struct ExplorerDiagnosticsTests {
    static let options = ExplorationOptions(stallTimeout: 3)

    /// Explores `thread` on `threads` logical threads; `release` runs once the exploration is over.
    static func explore(
        threads: Int = 1,
        thread: @escaping @Sendable (Int) throws -> Void,
        release: () -> Void
    ) async throws -> ExplorationReport {
        let exploration = Exploration(
            summary: "provokes a stall",
            defaultThreads: threads,
            makeState: { 0 },
            thread: { _, index in try thread(index) },
            invariant: { _, _ in nil }
        )
        let report = try await Explorer.explore(exploration, options: options)
        release()
        return report
    }

    /// One thread passes the point "before the wait", then waits on a semaphore nothing in the
    /// exploration signals (it is signalled once the exploration is over).
    static func exploreInvisibleWait() async throws -> ExplorationReport {
        let semaphore = DispatchSemaphore(value: 0)
        return try await explore { _ in
            Race.step("before the wait")
            semaphore.wait()
        } release: {
            semaphore.signal()
        }
    }

    @Test("a window inside a critical section the explorer does not see: the waiter, and the paused holder")
    func windowInCriticalSection() async throws {
        let lock = NSLock()
        let report = try await Self.explore(threads: 2) { _ in
            lock.lock()
            Race.window("inside the lock")
            lock.unlock()
        } release: {
        }
        let stall = try #require(report.stall)
        #expect(stall.cause == .windowInCriticalSection)
        #expect(stall.thread == 1)
        #expect(stall.lastPoint == nil, "thread 1 never reached its first point")
        #expect(stall.explanation.contains("thread 0 (paused at 'inside the lock')"))
        #expect(stall.fix.contains("RaceLock"))
        #if os(Linux)
        #expect(stall.observed?.contains("futex") == true)
        #endif
        #expect(report.abandoned != nil)
    }

    @Test("a lock or semaphore nothing in the exploration will release")
    func invisibleLock() async throws {
        let report = try await Self.exploreInvisibleWait()
        let stall = try #require(report.stall)
        #expect(stall.cause == .invisibleLock)
        #expect(stall.lastPoint == "before the wait")
        #expect(stall.fix.contains("RaceQueue"))
    }

    @Test("an await on work the explorer does not run")
    func awaitedOutside() async throws {
        let continuation = LockedValueBox<CheckedContinuation<Void, Never>?>(nil)
        let exploration = Exploration(
            summary: "awaits a continuation resumed from outside",
            defaultThreads: 1,
            makeState: { 0 },
            asyncThread: { _, _ in
                Race.step("before the await")
                await withCheckedContinuation { resume in continuation.withLockedValue { $0 = resume } }
            },
            invariant: { _, _ in nil }
        )
        let report = try await Explorer.explore(exploration, options: Self.options)
        continuation.withLockedValue { $0?.resume() }
        let stall = try #require(report.stall)
        #expect(stall.cause == .awaitedOutside)
        #expect(stall.lastPoint == "before the await")
        #expect(stall.fix.contains("RaceTask"))
    }

    #if os(Linux)
    // The causes below are told apart by sampling the thread's system call, which only Linux offers.

    @Test("a kernel file lock taken directly (flock)")
    func fileLock() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-stall-\(getpid()).lock").path
        let holder = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(holder >= 0)
        defer {
            close(holder)
            unlink(path)
        }
        try #require(flock(holder, LOCK_EX) == 0)
        let report = try await Self.explore { _ in
            Race.step("before flock")
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            _ = flock(descriptor, LOCK_EX)
            close(descriptor)
        } release: {
            _ = flock(holder, LOCK_UN)
        }
        let stall = try #require(report.stall)
        #expect(stall.cause == .fileLock)
        #expect(stall.observed == "blocked in flock")
        #expect(stall.fix.contains("RaceLockFile"))
    }

    @Test("a blocking system call (read on an empty pipe)")
    func blockingCall() async throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (reader, writer) = (ends[0], ends[1])
        defer { close(reader) }
        let report = try await Self.explore { _ in
            Race.step("before read")
            var byte: UInt8 = 0
            _ = read(reader, &byte, 1)
        } release: {
            close(writer)
        }
        let stall = try #require(report.stall)
        #expect(stall.cause == .blockingCall)
        #expect(stall.observed == "blocked in read")
    }

    @Test("a sleep longer than the stall limit")
    func sleeping() async throws {
        // Nothing interrupts a sleep: the thread wakes after a minute, finishes its abandoned
        // execution's body, and ends.
        let report = try await Self.explore { _ in
            Race.step("before the sleep")
            Thread.sleep(forTimeInterval: 60)
        } release: {
        }
        let stall = try #require(report.stall)
        #expect(stall.cause == .sleeping)
        #expect(stall.observed == "sleeping")
        #expect(stall.fix.contains("--stall"))
    }

    @Test("a spin loop without a scheduling point")
    func spinning() async throws {
        final class Flag: Sendable { let released = Atomic<Bool>(false) }
        let flag = Flag()
        let report = try await Self.explore { _ in
            Race.step("before the loop")
            while !flag.released.load(ordering: .relaxed) {}
        } release: {
            flag.released.store(true, ordering: .relaxed)
        }
        let stall = try #require(report.stall)
        #expect(stall.cause == .spinning)
        #expect(stall.fix.contains("Race.step"))
    }
    #endif

    @Test("several samples of a thread: seen running in a quarter of them means it computes")
    func sampleSummary() {
        let waiting = ThreadActivity.lockWait
        // A spinning thread under ThreadSanitizer, caught in the sanitizer's own lock more often than not.
        #expect(ThreadActivity.summary(of: [waiting, .running, waiting, waiting]) == .running)
        // Blocked for good: never running.
        #expect(ThreadActivity.summary(of: [waiting, waiting, waiting, waiting, waiting]) == .lockWait)
        #expect(ThreadActivity.summary(of: [.running, waiting, waiting, waiting, waiting]) == .lockWait)
        // A sleeper caught once in a read: the most frequent wins.
        #expect(ThreadActivity.summary(of: [.sleeping, .blockingCall("read"), .sleeping, .unknown]) == .sleeping)
        #expect(ThreadActivity.summary(of: [.unknown, .fileLock("fcntl"), .fileLock("fcntl")]) == .fileLock("fcntl"))
        #expect(ThreadActivity.summary(of: []) == .unknown)
    }

    @Test("the text of a stuck exploration names the cause and the fix, and no schedule limit")
    func stuckText() async throws {
        let report = try await Self.exploreInvisibleWait()
        let text = report.text
        #expect(text.contains("stopped: a thread got stuck"))
        #expect(!text.contains("schedule limit reached"))
        #expect(text.contains("  stuck: thread 0, last scheduling point 'before the wait'"))
        #expect(text.contains("  likely cause: "))
        #expect(text.contains("  fix: "))
    }

    // MARK: - Nothing explored

    static func exploration(threads: Int, steps: @escaping @Sendable (Int) -> Int) -> Exploration {
        Exploration(
            summary: "threads with some steps",
            defaultThreads: threads,
            makeState: { 0 },
            thread: { _, index in
                for _ in 0..<steps(index) { Race.step("step") }
            },
            invariant: { _, _ in nil }
        )
    }

    @Test("a thread that finishes without a scheduling point starts at one: 4 places among 3 points")
    func threadWithoutPoints() async throws {
        let report = try await Explorer.explore(Self.exploration(threads: 2) { $0 == 0 ? 2 : 0 })
        // Thread 0: its start and two steps; thread 1: its start, anywhere among them. Its one step
        // ran while thread 0 was between two points: both were interleaved.
        #expect(report.schedules == 4)
        #expect(report.notInterleaved == nil)
        #expect(report.warning == nil)
    }

    @Test("within 0 preemptions that thread only runs before or after the other: never interleaved, and why")
    func threadWithoutPointsUnpreempted() async throws {
        let report = try await Explorer.explore(
            Self.exploration(threads: 2) { $0 == 0 ? 2 : 0 },
            options: .init(preemptions: 0)
        )
        #expect(report.schedules == 2)
        let warning = try #require(report.warning)
        #expect(warning.hasPrefix("thread 1 finished without reaching a scheduling point"))
        #expect(warning.contains("only the orders in which threads start were tried"))
        #expect(report.notInterleaved == warning)
    }

    @Test("threads with no point at all run in every order: each order of their starts")
    func threadsWithoutPointsRunInEveryOrder() async throws {
        let report = try await Explorer.explore(Self.exploration(threads: 3) { _ in 0 })
        #expect(report.schedules == 6)
        #expect(report.tracesCovered == 6)
        #expect(report.notInterleaved?.hasPrefix("threads 0, 1 and 2 finished without reaching") == true)
    }

    @Test("a thread without points, never run between the others' points: warned about, the rest explored")
    func oneThreadWithoutPoints() async throws {
        // Within 0 preemptions thread 2 starts only when no other thread is between two points.
        let report = try await Explorer.explore(
            Self.exploration(threads: 3) { $0 == 2 ? 0 : 1 },
            options: .init(preemptions: 0)
        )
        #expect(report.schedules > 1)
        #expect(report.warning == Explorer.nothingExplored(3, [2], 1))
        #expect(report.warning?.hasPrefix("thread 2 finished without reaching a scheduling point") == true)
        #expect(report.warning?.contains("nothing was explored") == false)
    }

    @Test("one thread: one schedule, and the warning says so")
    func oneThread() async throws {
        let report = try await Explorer.explore(Self.exploration(threads: 1) { _ in 3 })
        #expect(report.schedules == 1)
        #expect(report.warning?.contains("because the program has one thread") == true)
    }

    @Test("threads that interleave get no warning")
    func noWarning() async throws {
        let report = try await Explorer.explore(Self.exploration(threads: 2) { _ in 1 })
        #expect(report.schedules > 1)
        #expect(report.warning == nil)
    }
}

import Foundation
import Testing

@testable import RaceLab

/// The model rules each explorer primitive answers for itself: whether a thread paused at one of
/// its points can go on, who keeps it waiting, and what choosing it changes. Checked on the models
/// directly, without running threads, so that each rule is seen on its own.
@Suite("Explorer primitives")
struct ExplorerPrimitiveTests {
    /// An object whose identity keys a model, as a `RaceLock` or a `RaceQueue` does.
    final class Object {}

    @Test("a plain point (a window, a step) always proceeds and changes nothing")
    func plainPoint() {
        let state = ExecutionState(threads: 1)
        let point = PlainPoint(name: "set contents")
        #expect(point.canProceed(0, in: state))
        #expect(point.holder(in: state) == nil)
        #expect(point.awaitedThread == nil)
    }

    @Test("a lock excludes: once chosen by one thread, no other can take it until the holder releases it")
    func lockExcludes() {
        let state = ExecutionState(threads: 2)
        let lock = Object()
        let acquire = LockAcquire(lock: ObjectIdentifier(lock), name: "lock first")
        #expect(acquire.canProceed(0, in: state))
        #expect(acquire.canProceed(1, in: state))
        acquire.chosen(by: 0, in: state)
        #expect(!acquire.canProceed(1, in: state))
        #expect(acquire.holder(in: state) == 0)
        let model = state.model(of: ObjectIdentifier(lock), LockModel.init)
        model.release(by: 1, in: state)
        #expect(model.holder == 0, "only the holder releases a lock")
        model.release(by: 0, in: state)
        #expect(acquire.canProceed(1, in: state))
        #expect(acquire.holder(in: state) == nil)
    }

    @Test("while a deadlocked execution is drained, any unlock frees the lock")
    func drainedLockFrees() {
        let state = ExecutionState(threads: 2)
        let lock = Object()
        LockAcquire(lock: ObjectIdentifier(lock), name: "lock first").chosen(by: 0, in: state)
        state.freeRunning = true
        let model = state.model(of: ObjectIdentifier(lock), LockModel.init)
        model.release(by: 1, in: state)
        #expect(model.holder == nil)
    }

    @Test("two locks have two models")
    func locksAreIndependent() {
        let state = ExecutionState(threads: 2)
        let (first, second) = (Object(), Object())
        LockAcquire(lock: ObjectIdentifier(first), name: "lock first").chosen(by: 0, in: state)
        #expect(LockAcquire(lock: ObjectIdentifier(second), name: "lock second").canProceed(1, in: state))
        #expect(!LockAcquire(lock: ObjectIdentifier(first), name: "lock first").canProceed(1, in: state))
    }

    /// An execution of `threads` threads with a concurrent queue in it, and the queue's model.
    static func concurrentQueue(threads: Int) -> (ExecutionState, Object, QueueModel) {
        let state = ExecutionState(threads: threads)
        let queue = Object()
        return (state, queue, state.model(of: ObjectIdentifier(queue)) { QueueModel(serial: false) })
    }

    /// Submits an `async` item of `queue` owned by a new thread, as `RaceQueue.async` does.
    static func submit(_ queue: Object, serial: Bool, barrier: Bool, in state: ExecutionState) -> QueueItemStart {
        let thread = state.threadCount
        let item = state.model(of: ObjectIdentifier(queue)) { QueueModel(serial: serial) }
            .submit(barrier: barrier, owner: thread)
        let point = QueueItemStart(
            queue: ObjectIdentifier(queue),
            serial: serial,
            barrier: barrier,
            item: item,
            name: "item \(item)"
        )
        _ = state.addThread(by: 0, name: point.name, first: point)
        return point
    }

    @Test("a serial queue starts its items one at a time, in submission order")
    func serialQueue() {
        let state = ExecutionState(threads: 1)
        let queue = Object()
        let first = Self.submit(queue, serial: true, barrier: false, in: state)
        let second = Self.submit(queue, serial: true, barrier: false, in: state)
        #expect(first.canProceed(1, in: state))
        #expect(!second.canProceed(2, in: state), "the second item waits for the first")
        #expect(second.holder(in: state) == 1)
        first.chosen(by: 1, in: state)
        #expect(!second.canProceed(2, in: state), "a running item still holds the queue")
        state.model(of: ObjectIdentifier(queue)) { QueueModel(serial: true) }.setState(.done, of: first.item)
        #expect(second.canProceed(2, in: state))
    }

    @Test("a concurrent queue runs items side by side; a barrier waits for those before it and holds back those after")
    func concurrentQueueBarrier() {
        let (state, queue, model) = Self.concurrentQueue(threads: 1)
        let reader = Self.submit(queue, serial: false, barrier: false, in: state)
        let writer = Self.submit(queue, serial: false, barrier: true, in: state)
        let later = Self.submit(queue, serial: false, barrier: false, in: state)
        #expect(reader.canProceed(1, in: state))
        #expect(!writer.canProceed(2, in: state))
        #expect(!later.canProceed(3, in: state), "an item after a barrier waits for it")
        #expect(later.holder(in: state) == 2)
        reader.chosen(by: 1, in: state)
        model.setState(.done, of: reader.item)
        #expect(writer.canProceed(2, in: state))
        writer.chosen(by: 2, in: state)
        model.setState(.done, of: writer.item)
        #expect(later.canProceed(3, in: state))
        // Items between barriers start in any order, side by side.
        let other = Self.submit(queue, serial: false, barrier: false, in: state)
        later.chosen(by: 3, in: state)
        #expect(other.canProceed(4, in: state))
    }

    @Test("a sync call joins the queue when chosen: it waits behind a running barrier, then runs as an item of its own")
    func syncCall() {
        let (state, queue, model) = Self.concurrentQueue(threads: 2)
        let barrier = QueueSyncCall(queue: ObjectIdentifier(queue), serial: false, barrier: true, name: "sync barrier")
        let read = QueueSyncCall(queue: ObjectIdentifier(queue), serial: false, barrier: false, name: "sync")
        #expect(barrier.canProceed(0, in: state))
        barrier.chosen(by: 0, in: state)
        #expect(!read.canProceed(1, in: state))
        #expect(read.holder(in: state) == 0)
        let item = model.takeSyncItem(of: 0)
        #expect(item == 0)
        #expect(model.takeSyncItem(of: 0) == nil, "an item is handed to its thread once")
        model.setState(.done, of: 0)
        #expect(read.canProceed(1, in: state))
        read.chosen(by: 1, in: state)
        #expect(model.items.map(\.owner) == [0, 1])
    }

    @Test("a join waits until its thread has finished, and names that thread as the holder")
    func join() {
        let state = ExecutionState(threads: 2)
        let join = ThreadJoin(thread: 1, name: "await load task")
        #expect(!join.canProceed(0, in: state))
        #expect(join.holder(in: state) == 1)
        #expect(join.awaitedThread == 1)
        state.finish(1)
        #expect(join.canProceed(0, in: state))
    }

    /// A strategy that runs the lowest enabled thread and records every decision it saw.
    final class RecordingStrategy: SchedulingStrategy {
        var decisions: [(enabled: [Int], pending: [String?])] = []

        func choose(_ decision: SchedulingDecision) -> Int {
            decisions.append((decision.enabled, decision.pending.map { $0?.name }))
            return decision.enabled[0]
        }
    }

    @Test("a strategy sees the point every thread is paused at, blocked ones included (room for DPOR)")
    func strategySeesPendingPoints() {
        let lock = RaceLock("shared")
        let program = ExplorableProgram(
            threads: [
                {
                    lock.lock()
                    Race.window("inside")
                    lock.unlock()
                },
                { lock.withLock {} },
            ],
            invariant: { nil },
            tearDown: {}
        )
        let strategy = RecordingStrategy()
        let result = ControlledExecution.run(program, strategy: strategy, stepBound: 100, stallTimeout: 60)
        #expect(result.outcome == .passed)
        #expect(result.steps.map(\.operation) == ["lock shared", "inside", "lock shared"])
        let seen = strategy.decisions.map { "\($0.enabled) \($0.pending)" }
        #expect(
            seen == [
                #"[0, 1] [Optional("lock shared"), Optional("lock shared")]"#,
                // Thread 1 is blocked at the lock thread 0 holds: not enabled, but still visible.
                #"[0] [Optional("inside"), Optional("lock shared")]"#,
                #"[1] [nil, Optional("lock shared")]"#,
            ]
        )
    }

    @Test("the task executor never waits for a thread: jobs blocked all at once each get one", .timeLimit(.minutes(5)))
    func executorGrows() async {
        // More blocked jobs at once than the machine has cores, so that a pool sized by cores (the
        // cooperative pool, libdispatch's on a loaded machine) would leave some unstarted, and this
        // test hang until its time limit.
        let count = ProcessInfo.processInfo.activeProcessorCount * 4 + 8
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask(executorPreference: ExplorerExecutor.shared) {
                    started.signal()
                    release.wait()
                }
            }
            await onOwnThread {
                for _ in 0..<count { started.wait() }
                for _ in 0..<count { release.signal() }
            }
        }
        #expect(ExplorerExecutor.shared.threadCount >= count)
    }
}

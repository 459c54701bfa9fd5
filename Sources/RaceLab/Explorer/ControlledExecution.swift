import Foundation

/// Runs one explorable program under a baton: every logical thread is a real thread, but only the
/// one holding the baton runs; the others wait on a shared condition until it is their turn.
///
/// A thread gives the baton back at each scheduling point (a `Race.window`, a `Race.step`, a
/// `RaceLock.lock()`): it records the operation it is about to perform and waits. The controller
/// (the calling thread) then asks the policy who goes next. Real threads, rather than a model,
/// because the point is to run the lesson's own code: queue calls, locks and all.
///
/// Code before a thread's first scheduling point runs when the thread is started, one thread after
/// the other; it is treated as thread-local set-up, not as steps.
final class ControlledExecution: @unchecked Sendable {
    private let condition = NSCondition()
    /// The thread allowed to run; nil while the controller decides.
    private var running: Int?
    /// Per logical thread, indexed by id: the program's threads first, then those started while it
    /// runs (`spawn`), in the order they were started.
    private var pending: [PendingOperation?]
    private var finished: [Bool]
    private var spawned: [SpawnedThread] = []
    private var errors: [Int: String] = [:]
    private var owners: [ObjectIdentifier: Int] = [:]
    private var queues: [ObjectIdentifier: QueueModel] = [:]
    /// For a thread resumed at a `sync`: the index of the item submitted for it.
    private var syncItems: [Int: Int] = [:]
    /// After a deadlock or the step bound: locks no longer exclude, so that every thread can be run
    /// to its end (see `drain`).
    private var freeRunning = false

    private init(threads: Int) {
        pending = Array(repeating: nil, count: threads)
        finished = Array(repeating: false, count: threads)
    }

    /// Runs `program` once, choosing at each point with `policy`.
    ///
    /// - Parameters:
    ///   - stepBound: more steps than this is reported as a livelock.
    ///   - stallTimeout: seconds a running thread may take to reach its next point.
    static func run(
        _ program: ExplorableProgram,
        policy: SchedulingPolicy,
        stepBound: Int,
        stallTimeout: Double
    ) -> ExecutionResult {
        let execution = ControlledExecution(threads: program.threads.count)
        let result = execution.drive(program, policy: policy, stepBound: stepBound, stallTimeout: stallTimeout)
        if case .stuck = result.outcome {} else { program.tearDown() }
        return result
    }

    private func drive(
        _ program: ExplorableProgram,
        policy: SchedulingPolicy,
        stepBound: Int,
        stallTimeout: Double
    ) -> ExecutionResult {
        let count = program.threads.count
        var choices: [Int] = []
        var steps: [ScheduleStep] = []
        func result(_ outcome: ExecutionOutcome) -> ExecutionResult {
            ExecutionResult(
                schedule: Schedule(threads: count, choices: choices),
                steps: steps,
                outcome: outcome,
                spawned: spawned
            )
        }
        policy.beginExecution()
        condition.lock()
        defer { condition.unlock() }
        // Start each thread and let it run its set-up to its first scheduling point.
        for (index, body) in program.threads.enumerated() {
            let logical = LogicalThread(id: index, execution: self)
            let thread = Thread {
                Race.$hook.withValue(logical) {
                    logical.execution.awaitTurn(index)
                    do { try body() } catch { logical.execution.record(error, of: index) }
                }
                logical.execution.finish(index)
            }
            thread.stackSize = 1 << 20
            thread.start()
            running = index
            condition.broadcast()
            if !awaitBaton(timeout: stallTimeout) {
                return result(.stuck(thread: index, after: "start", seconds: stallTimeout))
            }
        }
        var current: Int?
        while true {
            if finished.allSatisfy({ $0 }) { break }
            let enabled = pending.indices.filter { !finished[$0] && canProceed($0) }
            if enabled.isEmpty {
                let positions = pending.indices.filter { !finished[$0] }.map { index in
                    ThreadPosition(
                        thread: index,
                        waitingFor: pending[index]?.name ?? "?",
                        heldBy: holder(of: pending[index])
                    )
                }
                drain(timeout: stallTimeout)
                return result(.deadlock(positions))
            }
            if steps.count >= stepBound {
                drain(timeout: stallTimeout)
                return result(.stepBoundExceeded(stepBound))
            }
            let chosen = policy.choose(enabled: enabled, current: current, step: steps.count)
            let operation = pending[chosen]!
            choices.append(chosen)
            steps.append(ScheduleStep(thread: chosen, operation: operation.name))
            switch operation {
            case .acquire(let lock, _): owners[lock] = chosen
            case .queueItem(let queue, let item, _): queues[queue]?.setState(.running, of: item)
            case let .queueSync(queue, serial, barrier, _):
                let item = queues[queue, default: QueueModel(serial: serial)].submit(barrier: barrier, owner: chosen)
                queues[queue]?.setState(.running, of: item)
                syncItems[chosen] = item
            case .point, .join: break
            }
            pending[chosen] = nil
            current = chosen
            running = chosen
            condition.broadcast()
            if !awaitBaton(timeout: stallTimeout) {
                return result(.stuck(thread: chosen, after: operation.name, seconds: stallTimeout))
            }
        }
        if let (thread, message) = errors.min(by: { $0.key < $1.key }) {
            return result(.threw(thread: thread, message: message))
        }
        condition.unlock()
        let broken = program.invariant()
        condition.lock()
        return result(broken.map(ExecutionOutcome.invariantBroken) ?? .passed)
    }

    // MARK: - Controller side (condition held)

    /// Waits until the running thread gives the baton back; false on timeout.
    private func awaitBaton(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running != nil {
            if !condition.wait(until: deadline) && running != nil { return false }
        }
        return true
    }

    private func canProceed(_ index: Int) -> Bool {
        switch pending[index] {
        case .acquire(let lock, _)?: owners[lock] == nil
        case .join(let thread, _)?: finished[thread]
        case .queueItem(let queue, let item, _)?: queues[queue]?.canStart(item) ?? true
        case .queueSync(let queue, _, let barrier, _)?: queues[queue]?.blocker(ofNew: barrier) == nil
        case .point?, nil: true
        }
    }

    private func holder(of operation: PendingOperation?) -> Int? {
        switch operation {
        case .acquire(let lock, _)?: owners[lock]
        case .join(let thread, _)?: thread
        case .queueItem(let queue, let item, _)?: queues[queue]?.blocker(of: item)?.owner
        case .queueSync(let queue, _, let barrier, _)?: queues[queue]?.blocker(ofNew: barrier)?.owner
        case .point?, nil: nil
        }
    }

    /// Lets every unfinished thread run to its end after a deadlock or the step bound, so that none
    /// is left parked forever: locks are ignored and threads take turns round-robin, one step each
    /// (still one at a time, so the discarded state is never raced on), except that a thread
    /// awaiting another waits until that one finished. Gives up after `limit` steps.
    private func drain(timeout: Double, limit: Int = 100_000) {
        freeRunning = true
        var next = 0
        for _ in 0..<limit {
            let unfinished = (0..<finished.count).map({ (next + $0) % finished.count }).filter { !finished[$0] }
            // A thread awaiting an unfinished one would block for real: run the awaited first.
            guard let chosen = unfinished.first(where: { !awaitsUnfinished($0) }) ?? unfinished.first else { return }
            next = chosen + 1
            pending[chosen] = nil
            running = chosen
            condition.broadcast()
            if !awaitBaton(timeout: timeout) { return }
        }
    }

    private func awaitsUnfinished(_ index: Int) -> Bool {
        guard case .join(let thread, _)? = pending[index] else { return false }
        return !finished[thread]
    }

    // MARK: - Logical thread side

    fileprivate func awaitTurn(_ index: Int) {
        condition.lock()
        while running != index { condition.wait() }
        condition.unlock()
    }

    /// Called by a running thread at a scheduling point: hand the baton back and wait for a turn.
    fileprivate func pause(_ index: Int, before operation: PendingOperation) {
        condition.lock()
        defer { condition.unlock() }
        pending[index] = operation
        running = nil
        condition.broadcast()
        while running != index { condition.wait() }
    }

    /// Registers a logical thread started by `parent` (a callback it scheduled, a task it created).
    /// The new thread is runnable at once: its first step, named `name`, is entering its body, and
    /// the controller, when it chooses that step, waits for the real thread that runs the body.
    fileprivate func spawn(by parent: Int, name: String) -> Int {
        condition.lock()
        defer { condition.unlock() }
        return addThread(by: parent, name: name, first: .point(name))
    }

    /// Submits an `async` work item to `queue`, run by a new logical thread started by `submitter`,
    /// whose first step is starting the item. Returns the item and the new thread.
    fileprivate func submit(
        to queue: ObjectIdentifier,
        serial: Bool,
        barrier: Bool,
        name: String,
        by submitter: Int
    ) -> (item: Int, thread: Int) {
        condition.lock()
        defer { condition.unlock() }
        let thread = pending.count
        let item = queues[queue, default: QueueModel(serial: serial)].submit(barrier: barrier, owner: thread)
        _ = addThread(by: submitter, name: name, first: .queueItem(queue, item: item, name: name))
        return (item, thread)
    }

    /// Appends a spawned thread paused before `first`; returns its id. Condition held.
    private func addThread(by parent: Int, name: String, first: PendingOperation) -> Int {
        let id = pending.count
        pending.append(first)
        finished.append(false)
        spawned.append(SpawnedThread(thread: id, parent: parent, name: name))
        return id
    }

    /// The item the controller submitted for `thread` when it chose its `sync`.
    fileprivate func takeSyncItem(of thread: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        return syncItems.removeValue(forKey: thread)
    }

    /// True once the execution is being drained after a deadlock or the step bound.
    fileprivate var isFreeRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return freeRunning
    }

    fileprivate func itemDone(_ item: Int, of queue: ObjectIdentifier) {
        condition.lock()
        defer { condition.unlock() }
        queues[queue]?.setState(.done, of: item)
    }

    fileprivate func release(_ lock: ObjectIdentifier, by index: Int) {
        condition.lock()
        defer { condition.unlock() }
        if owners[lock] == index || freeRunning { owners[lock] = nil }
    }

    fileprivate func finish(_ index: Int) {
        condition.lock()
        finished[index] = true
        if running == index { running = nil }
        condition.broadcast()
        condition.unlock()
    }

    fileprivate func record(_ error: any Error, of index: Int) {
        condition.lock()
        errors[index] = String(describing: error)
        condition.unlock()
    }
}

/// The hook bound (as `Race.hook`) on one logical thread: each window or step it reaches becomes a
/// scheduling point of its execution.
final class LogicalThread: RaceWindowHook, @unchecked Sendable {
    let id: Int
    let execution: ControlledExecution

    init(id: Int, execution: ControlledExecution) {
        self.id = id
        self.execution = execution
    }

    func windowReached(_ name: StaticString) {
        execution.pause(id, before: .point(name.description))
    }

    func stepReached(_ name: StaticString) {
        execution.pause(id, before: .point(name.description))
    }

    func acquire(_ lock: ObjectIdentifier, name: String) {
        execution.pause(id, before: .acquire(lock, name: name))
    }

    func release(_ lock: ObjectIdentifier) {
        execution.release(lock, by: id)
    }

    /// A new logical thread of the same execution, started by this one (see `RaceHandOff`).
    func spawn(_ name: String) -> LogicalThread {
        LogicalThread(id: execution.spawn(by: id, name: name), execution: execution)
    }

    /// Called on the real thread that runs a spawned thread's body, before it: waits to be chosen.
    func begin() {
        execution.awaitTurn(id)
    }

    /// Called when a spawned thread's body has returned.
    func end() {
        execution.finish(id)
    }

    /// Runs `work` as a work item of `queue` on this thread (`sync`): pauses until the queue would
    /// start an item submitted now (the controller then submits and starts it), runs it, and marks
    /// it done.
    ///
    /// The item joins the queue only when the thread is chosen, not when it reached the call: a
    /// caller that waits is indistinguishable from one that called later, so this loses no
    /// outcome, and it lets the explorer try every order of the callers.
    ///
    /// The item also runs inside the real queue (`dispatchQueue`), so that it excludes threads outside the
    /// exploration too (another test using a process-wide queue). That never blocks behind another
    /// logical thread: the model starts an item only when the real queue would admit it.
    func runItem<Result>(
        of queue: RaceQueue,
        barrier: Bool,
        name: String,
        _ work: () throws -> Result
    ) rethrows -> Result {
        let queueID = ObjectIdentifier(queue)
        execution.pause(id, before: .queueSync(queueID, serial: queue.isSerial, barrier: barrier, name: name))
        // Nil while draining after a deadlock, when queues no longer exclude (nor the real one,
        // which a thread paused inside an item may hold).
        guard let item = execution.takeSyncItem(of: id) else { return try work() }
        defer { execution.itemDone(item, of: queueID) }
        return try queue.dispatchQueue.sync(flags: barrier ? .barrier : [], execute: work)
    }

    /// Submits `work` to `queue` as an item run by a new logical thread (`async`), on a real thread
    /// of its own (inside the real queue, as for `runItem`); returns at once.
    func submitItem(to queue: RaceQueue, barrier: Bool, name: String, _ work: @escaping @Sendable () -> Void) {
        let queueID = ObjectIdentifier(queue)
        let (item, thread) = execution.submit(to: queueID, serial: queue.isSerial, barrier: barrier, name: name, by: id)
        let child = LogicalThread(id: thread, execution: execution)
        let runner = Thread {
            child.begin()
            Race.$hook.withValue(child) {
                if child.execution.isFreeRunning {
                    work()
                } else {
                    queue.dispatchQueue.sync(flags: barrier ? .barrier : [], execute: work)
                }
            }
            child.execution.itemDone(item, of: queueID)
            child.end()
        }
        runner.stackSize = 1 << 20
        runner.start()
    }

    /// Pauses until `thread` has finished: `name` is what this thread waits for, e.g. `await load`.
    func join(_ thread: LogicalThread, name: String) {
        execution.pause(id, before: .join(thread.id, name: name))
    }
}

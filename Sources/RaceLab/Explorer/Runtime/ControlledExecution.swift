import Foundation

/// Runs one explorable program under a baton: every logical thread is a real thread, but only the
/// one holding the baton runs; the others wait, each on a condition of its own, until it is their
/// turn.
///
/// A thread gives the baton back at each scheduling point (a `Race.window`, a `Race.step`, a
/// `RaceLock.lock()`): it records the operation it is about to perform and waits. The controller
/// (the calling thread) then asks the strategy who goes next. Real threads, rather than a model,
/// because the point is to run the lesson's own code: queue calls, locks and all.
///
/// The controller knows no primitive: each paused thread's `SchedulingPoint` says whether it can go
/// on and what choosing it changes (in the primitives' models, held in `ExecutionState`), and it
/// knows no strategy beyond `SchedulingStrategy`.
///
/// Code before a thread's first scheduling point runs when the thread is started, one thread after
/// the other, as thread-local set-up, unless the threads start at points (`startPoints`): each
/// program thread then waits in front of its first line, so that the strategy chooses the order in
/// which threads start, and whether one starts while another is between two points. The explorer
/// asks for that when a thread would otherwise run as set-up to its end (`Explorer`), so that code
/// with no other point still runs in every order. An async thread starts its task at once: the
/// task's first job is its first point (`AsyncJobs`).
///
/// One lock guards everything (`running`, `state`, the errors); each logical thread waits for its
/// turn on a condition of its own and the controller on another, so a hand-off wakes one thread:
/// the one given the baton, or the controller when the baton comes back. (One shared condition
/// woke every paused thread at every hand-off, each to find it was not its turn and sleep again:
/// three times the context switches, most of an exploration's time spent in the kernel.)
final class ControlledExecution: @unchecked Sendable {
    /// Guards `running`, `state` and what the threads record.
    let lock = ParkingLock()
    /// Where the controller waits: for the baton to come back, or for a job from outside. Only the
    /// controller waits here.
    private let controllerWakeUp = ParkingCondition()
    /// Per logical thread, by id: where it waits for its turn. Made when first needed, since threads
    /// are added while the execution runs. Guarded by `lock`.
    private var turns: [ParkingCondition] = []
    /// The thread allowed to run; nil while the controller decides. Set with `hand(to:)` and
    /// `takeBack()`, which wake whoever waits for the change.
    private(set) var running: Int?
    let state: ExecutionState
    /// What each thread did, to explain a stall or an exploration that explored nothing.
    let trace = ThreadTrace()
    private var errors: [Int: String] = [:]
    private var stateLog: StateLog?
    /// Whether `Race.window` and `Race.step` are scheduling points (`ExplorationOptions.marks`).
    let marks: Bool
    /// Whether Swift concurrency jobs are scheduling points, run one at a time (`AsyncJobs`): in
    /// every async exploration.
    let schedulesJobs: Bool
    /// What a thread's start declares it touches: nothing shared when the exploration declares
    /// complete footprints (the code before its first point touches only what that point declares),
    /// else everything.
    let startFootprint: Footprint
    /// Whether each synchronous program thread waits at a point of its own before its first line.
    let startPoints: Bool
    /// Whether marks are on and the exploration declares that they name every window
    /// (`Exploration.markingEveryWindow()`): then an operation whose moment matters only to code
    /// that is not marked (a `RaceQueue.async` submission) is no scheduling point of its own.
    let windowsMarked: Bool

    private init(
        threads: Int,
        marks: Bool,
        schedulesJobs: Bool,
        footprintsComplete: Bool,
        startPoints: Bool,
        windowsMarked: Bool
    ) {
        state = ExecutionState(threads: threads)
        self.marks = marks
        self.windowsMarked = marks && windowsMarked
        self.schedulesJobs = schedulesJobs
        startFootprint = footprintsComplete ? .nothing : .everything
        self.startPoints = startPoints && !schedulesJobs
    }

    /// Runs `program` once, choosing at each point with `strategy`.
    ///
    /// - Parameters:
    ///   - stepBound: an execution that has taken this many steps and has not finished ends as
    ///     `stepBoundExceeded`; its threads then get as many steps again to finish free-running.
    ///   - stallTimeout: seconds a running thread may take to reach its next point.
    ///   - states: when given (and the program can describe its state), receives the state before
    ///     the first decision and after every step, while every thread is paused.
    ///   - marks: false to ignore `Race.window` and `Race.step`. An async program's jobs are
    ///     scheduling points either way (`AsyncJobs`); marks add points inside them.
    ///   - schedulesJobs: an async program's jobs are scheduling points (`ExplorationOptions`).
    ///   - footprintsComplete: the exploration declares complete footprints (see `startFootprint`).
    ///   - startPoints: each synchronous thread waits at its start, a scheduling point, instead of
    ///     running its set-up when started.
    ///   - windowsMarked: the exploration declares that its marks name every window (see
    ///     `windowsMarked`).
    static func run(
        _ program: ExplorableProgram,
        strategy: any SchedulingStrategy,
        stepBound: Int,
        stallTimeout: Double,
        states: StateLog? = nil,
        marks: Bool = true,
        schedulesJobs: Bool = true,
        footprintsComplete: Bool = false,
        startPoints: Bool = false,
        windowsMarked: Bool = false
    ) -> ExecutionResult {
        let execution = ControlledExecution(
            threads: program.threads.count,
            marks: marks,
            schedulesJobs: program.isAsync && schedulesJobs,
            footprintsComplete: footprintsComplete,
            startPoints: startPoints,
            windowsMarked: windowsMarked
        )
        execution.stateLog = program.describeState == nil ? nil : states
        if execution.schedulesJobs { AsyncJobs.begin(execution) }
        var result = execution.drive(program, strategy: strategy, stepBound: stepBound, stallTimeout: stallTimeout)
        if execution.schedulesJobs { AsyncJobs.end(execution) }
        result.states = execution.stateLog?.states ?? []
        result.jobsWereSteps = execution.schedulesJobs
        // Threads still running (stuck, or looping past the drain) may still use the state.
        if !result.threadsLeftRunning { program.tearDown() }
        return result
    }

    private func drive(
        _ program: ExplorableProgram,
        strategy: any SchedulingStrategy,
        stepBound: Int,
        stallTimeout: Double
    ) -> ExecutionResult {
        let count = program.threads.count
        var choices: [Int] = []
        var steps: [ScheduleStep] = []
        var branching = 0
        var footprints: [Footprint] = []
        // Threads that have run code and not finished, and the threads that took a step while
        // another of those was between two points (or were between two points meanwhile): the
        // threads whose code this execution interleaved with another's.
        var started = Set<Int>()
        var interleaved = Set<Int>()
        func result(_ outcome: ExecutionOutcome, blocked: [Int: Footprint] = [:]) -> ExecutionResult {
            var result = ExecutionResult(
                schedule: Schedule(threads: count, choices: choices),
                steps: steps,
                outcome: outcome,
                spawned: state.spawned,
                footprints: footprints,
                blocked: blocked
            )
            if case .stuck(let thread, _, _) = outcome {
                result.stall = diagnoseStall(of: thread)
                result.threadsLeftRunning = true
            }
            // A task's start is a point of its thread's: a thread that reached no other ran as one job.
            // Such a thread is interleaved still when its one step ran while another thread was
            // between two points (a callback another thread started, say).
            let startsOnly = schedulesJobs ? 1 : 0
            result.unscheduledThreads = (0..<count).filter {
                trace.pointsReached(by: $0) <= startsOnly && !interleaved.contains($0)
            }
            result.branchingDecisions = branching
            lap(\.check)
            result.timing = timing
            return result
        }
        strategy.beginExecution()
        var timing = ExplorationTiming()
        var phase = DispatchTime.now().uptimeNanoseconds
        /// Ends the phase running now, adding its seconds to `part`.
        func lap(_ part: WritableKeyPath<ExplorationTiming, Double>) {
            let now = DispatchTime.now().uptimeNanoseconds
            timing[keyPath: part] += Double(now - phase) / 1e9
            phase = now
        }
        lock.lock()
        defer { lock.unlock() }
        // Start each thread: paused at its start, or running its set-up to its first point.
        for (index, body) in program.threads.enumerated() {
            let logical = LogicalThread(id: index, execution: self)
            ParkedThreads.shared.run {
                Race.$hook.withValue(logical) {
                    logical.execution.awaitTurn(index)
                    do { try body() } catch { logical.execution.record(error, of: index) }
                }
            } last: {
                logical.execution.finish(index)
            }
            if startPoints {
                state.pause(index, at: PlainPoint(name: "start", footprint: startFootprint))
                continue
            }
            hand(to: index)
            if !awaitBaton(timeout: stallTimeout) {
                return result(.stuck(thread: index, after: "start", seconds: stallTimeout))
            }
        }
        lap(\.threads)
        // A synchronous thread started without a start point ran its set-up before its first point.
        if !startPoints && !schedulesJobs {
            started = Set((0..<count).filter { !state.isFinished($0) })
        }
        var current: Int?
        while true {
            if let footprint = state.endStep() { footprints.append(footprint) }
            describeState(program)
            let unfinished = (0..<state.threadCount).filter { !state.isFinished($0) }
            if unfinished.isEmpty || isSettled(programThreads: count, unfinished: unfinished) { break }
            let enabled = unfinished.filter(state.canProceed)
            if enabled.isEmpty && awaitOutsideJob(unfinished: unfinished, timeout: stallTimeout) { continue }
            if enabled.isEmpty, let waiting = unfinished.first(where: { state.pending[$0] is AwaitingJob }) {
                return result(.stuck(thread: waiting, after: "await (no job will resume it)", seconds: stallTimeout))
            }
            if enabled.isEmpty {
                let positions = unfinished.map { index in
                    ThreadPosition(
                        thread: index,
                        waitingFor: state.pending[index]?.name ?? "?",
                        heldBy: state.pending[index]?.holder(in: state)
                    )
                }
                lap(\.steps)
                var blocked: [Int: Footprint] = [:]
                for index in unfinished { blocked[index] = state.pending[index]?.footprint ?? .everything }
                drain(timeout: stallTimeout)
                return result(.deadlock(positions), blocked: blocked)
            }
            if steps.count >= stepBound {
                lap(\.steps)
                // A livelock loops in the drain too: after `drainSteps` its threads are left parked
                // (the explorer stops, and says the bound may be raised).
                let ended = drain(timeout: stallTimeout, limit: Self.drainSteps)
                var unfinished = result(.stepBoundExceeded(stepBound))
                unfinished.threadsLeftRunning = !ended
                return unfinished
            }
            let decision = SchedulingDecision(
                enabled: enabled,
                current: current,
                step: steps.count,
                pending: state.pending,
                previousStep: footprints.count == steps.count ? footprints.last : .everything,
                spawned: state.spawned
            )
            let chosen = strategy.choose(decision)
            if enabled.count > 1 { branching += 1 }
            guard let point = state.resume(chosen) else {
                preconditionFailure("the strategy chose thread \(chosen), which is not paused")
            }
            choices.append(chosen)
            started = started.filter { !state.isFinished($0) }
            let between = started.subtracting([chosen])
            if !between.isEmpty { interleaved.formUnion(between.union([chosen])) }
            started.insert(chosen)
            steps.append(ScheduleStep(thread: chosen, operation: point.name))
            state.beginStep(of: chosen, at: point)
            point.chosen(by: chosen, in: state)
            current = chosen
            hand(to: chosen)
            if !awaitBaton(timeout: stallTimeout) {
                return result(.stuck(thread: chosen, after: point.name, seconds: stallTimeout))
            }
        }
        lap(\.steps)
        if let (thread, message) = errors.min(by: { $0.key < $1.key }) {
            return result(.threw(thread: thread, message: message))
        }
        lock.unlock()
        let broken = program.invariant()
        lock.lock()
        return result(broken.map(ExecutionOutcome.invariantBroken) ?? .passed)
    }

    // MARK: - Hand-offs (lock held)

    /// Gives the baton to `thread` and wakes it (it alone: no other thread's wait ends).
    func hand(to thread: Int) {
        running = thread
        turn(of: thread).broadcast()
    }

    /// Takes the baton back from the thread running (or from no one) and wakes the controller.
    func takeBack() {
        running = nil
        wakeController()
    }

    /// Wakes the controller to look again: the baton came back, or the state changed in a way that
    /// can let a thread go on (`awaitOutsideJob`).
    func wakeController() {
        controllerWakeUp.signal()
    }

    /// The condition thread `thread` waits on for its turn.
    private func turn(of thread: Int) -> ParkingCondition {
        while turns.count <= thread { turns.append(ParkingCondition()) }
        return turns[thread]
    }

    /// Waits until the controller gives `thread` the baton.
    private func awaitBaton(for thread: Int) {
        let turn = turn(of: thread)
        while running != thread { turn.wait(on: lock) }
    }

    /// Waits (as the controller) for a wake-up, at most until `deadline`; false when it passed.
    func awaitWakeUp(until deadline: Date) -> Bool {
        controllerWakeUp.wait(on: lock, until: deadline)
    }

    // MARK: - Controller side (lock held)

    /// Records the program's state in the log, if there is one: called between steps, with every
    /// thread paused. The lock is released meanwhile, as for the invariant, so that describing
    /// may wait for work outside the explorer (a queue's barrier, an actor's job).
    private func describeState(_ program: ExplorableProgram) {
        guard let stateLog, let describe = program.describeState else { return }
        lock.unlock()
        let line = describe()
        lock.lock()
        stateLog.states.append(line)
    }

    /// Waits until the running thread gives the baton back; false on timeout.
    private func awaitBaton(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while running != nil {
            if !awaitWakeUp(until: deadline) && running != nil { return false }
        }
        return true
    }

    /// The steps the threads of an unfinished execution get to finish free-running.
    static let drainSteps = 1_000

    /// Lets every unfinished thread run to its end after a deadlock or the step bound, so that none
    /// is left parked forever: primitives stop excluding and threads take turns round-robin, one
    /// step each (still one at a time, so the discarded state is never raced on), except that a
    /// thread awaiting another waits until that one finished. Gives up after `limit` steps.
    ///
    /// - Returns: whether no thread is left to run (false: the limit or a stall stopped it).
    @discardableResult
    private func drain(timeout: Double, limit: Int = 100_000) -> Bool {
        state.freeRunning = true
        var next = 0
        for _ in 0..<limit {
            let count = state.threadCount
            let unfinished = (0..<count).map({ (next + $0) % count }).filter {
                !state.isFinished($0) && !(state.pending[$0] is AwaitingJob)
            }
            // A thread awaiting an unfinished one would block for real: run the awaited first.
            guard let chosen = unfinished.first(where: { !awaitsUnfinished($0) }) ?? unfinished.first else {
                return true
            }
            next = chosen + 1
            (state.resume(chosen) as? JobPoint)?.dispatch(as: chosen)
            hand(to: chosen)
            if !awaitBaton(timeout: timeout) { return false }
        }
        return false
    }

    /// Why `thread` is stuck, from the trace, the paused threads and samples of its real thread
    /// (twenty over a tenth of a second).
    private func diagnoseStall(of thread: Int) -> StallDiagnosis {
        let paused = (0..<state.threadCount).compactMap { other -> (thread: Int, point: String)? in
            guard other != thread, !state.isFinished(other), let point = state.pending[other] else { return nil }
            return (other, point.name)
        }
        let record = trace.records[thread]
        var activity = ThreadActivity.unknown
        if let record, let real = record.thread, !(record.inTask && ExplorerExecutor.shared.isIdleWorker(real)) {
            activity = real.sample(count: 20, interval: .milliseconds(5))
        }
        return StallDiagnosis.diagnose(thread: thread, record: record, activity: activity, paused: paused)
    }

    private func awaitsUnfinished(_ index: Int) -> Bool {
        guard let awaited = state.pending[index]?.awaitedThread else { return false }
        return !state.isFinished(awaited)
    }

    // MARK: - Logical thread side

    /// Waits until the controller hands `index` the baton (a thread's start, a spawned body's).
    func awaitTurn(_ index: Int) {
        lock.lock()
        awaitBaton(for: index)
        trace.resumed(index)
        lock.unlock()
    }

    /// Called by a running thread at a scheduling point: hand the baton back and wait for a turn.
    func pause(_ index: Int, at point: any SchedulingPoint) {
        lock.lock()
        defer { lock.unlock() }
        state.pause(index, at: point)
        trace.paused(index, at: point.name)
        takeBack()
        awaitBaton(for: index)
        trace.resumed(index)
    }

    /// Runs `body` on the state under the lock: a model update between two points.
    func withState<Result>(_ body: (ExecutionState) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(state)
    }

    func finish(_ index: Int) {
        lock.lock()
        defer { lock.unlock() }
        // A thread whose task finished it (`runTask`) no longer holds the baton.
        if state.isFinished(index) { return }
        state.finish(index)
        if running == index {
            takeBack()
        } else {
            wakeController()
        }
    }

    func record(_ error: any Error, of index: Int) {
        lock.lock()
        errors[index] = String(describing: error)
        lock.unlock()
    }
}

/// The states of one execution, as its program describes them (`Exploration`'s `describeState`):
/// the first before any step, then one after each step (the last one also after a step that ended
/// the execution, before the invariant ran).
final class StateLog: @unchecked Sendable {
    /// Only touched by the controller's thread (and by a strategy it calls).
    var states: [String] = []
}

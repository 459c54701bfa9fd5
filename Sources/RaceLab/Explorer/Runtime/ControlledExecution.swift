import Foundation
import Synchronization

/// Runs one explorable program under a baton: every logical thread is a real thread, but only the
/// one holding the baton runs; the others wait, each on a condition of its own, until it is their
/// turn.
///
/// A thread gives the baton up at each scheduling point (a `Race.window`, a `Race.step`, a
/// `RaceLock.lock()`): it records the operation it is about to perform, asks the strategy who goes
/// next, and hands the baton straight to that thread, or keeps it when it is itself. A step
/// therefore costs one wake-up of a parked thread, or none. The controller (the calling thread)
/// starts the threads and waits; it looks again only when the strategy's choice is not all that is
/// left to do: the execution ended, no thread can go on (a deadlock, a task that waits for a job),
/// the step bound was reached, or the running thread takes longer than the stall limit. An
/// execution that records its states, or schedules Swift concurrency jobs, is decided on the
/// controller at every step: a state is described from a thread that is none of the program's,
/// and a job's end is seen by the executor's worker, not by a logical thread. Real threads, rather
/// than a model, because the point is to run the lesson's own code: queue calls, locks and all.
///
/// The controller knows no primitive: each paused thread's `SchedulingPoint` says whether it can go
/// on and what choosing it changes (in the primitives' models, held in `ExecutionState`), and it
/// knows no strategy beyond `SchedulingStrategy`. Whichever thread decides holds the lock, so the
/// strategy and the models are used by one thread at a time.
///
/// Code before a thread's first scheduling point runs when the thread is started, one thread after
/// the other, as thread-local set-up, unless the threads start at points (`startPoints`): each
/// program thread then waits in front of its first line, so that the strategy chooses the order in
/// which threads start, and whether one starts while another is between two points. The explorer
/// asks for that when a thread would otherwise run as set-up to its end (`Explorer`), so that code
/// with no other point still runs in every order. An async thread starts its task at once: the
/// task's first job is its first point (`AsyncJobs`). A program thread's real thread is taken from
/// `ParkedThreads` when the thread first gets the baton, not before: a thread that would only wake
/// to park again costs a wake-up for nothing.
///
/// One lock guards everything (`running`, `state`, the errors); each logical thread waits for its
/// turn on a condition of its own and the controller on another, so a hand-off wakes one thread.
/// A thread is woken after the lock is released, so that it does not wake only to wait for the
/// lock. (One shared condition woke every paused thread at every hand-off, each to find it was not
/// its turn and sleep again: three times the context switches.)
final class ControlledExecution: @unchecked Sendable {
    /// Guards `running`, `state` and what the threads record.
    let lock = ParkingLock()
    /// Where the controller waits: for the baton to come back, or for a job from outside. Only the
    /// controller waits here.
    private let controllerWakeUp = ParkingCondition()
    /// Per logical thread, by id: where it waits for its turn, a semaphore signalled once per
    /// hand-off to it. A thread waits for the baton without the lock, so the thread it woke does
    /// not find the lock held by the one that woke it. Made when first needed, since threads are
    /// added while the execution runs. Guarded by `lock`.
    private var turns: [DispatchSemaphore] = []
    /// The thread allowed to run, -1 while the controller decides. Written with the lock held; an
    /// atomic so that a thread waiting for its turn reads it without the lock.
    private let baton = Atomic<Int>(-1)
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

    // The schedule so far, guarded by `lock`: written by whichever thread decides a step.
    private var strategy: (any SchedulingStrategy)?
    private var stepBound = 0
    private var choices: [Int] = []
    private var steps: [ScheduleStep] = []
    /// Decisions at which more than one thread could go on.
    private var branching = 0
    /// The first failure the code said it saw (`Race.failureSeen(_:)`), with its step.
    private var failureSeen: FailureSeen?
    private var footprints: [Footprint] = []
    /// The thread that ran the previous step.
    private var current: Int?
    /// Whether a thread that gives the baton up decides the next step itself (see the type's
    /// comment); false before the steps start, while the execution is drained, and once it ended.
    private var threadsDecide = false
    /// When the running thread got the baton (monotonic nanoseconds): a stall is measured from it.
    private var givenAt: UInt64 = 0
    /// Per thread not started yet, by id: its body, started on a parked thread when the thread
    /// first gets the baton (`start(_:_:)`).
    private var unstarted: [ThreadStart?] = []
    /// The program's threads: the first ids.
    private var programThreads = 0
    /// While the program's threads start one after the other, each starting the next when it
    /// reaches its first point: the next one to start (the thread count once all have started).
    /// `Int.max` when the threads do not start each other.
    private var toStart = Int.max
    /// When the last program thread to start reached its first point, if a thread saw it
    /// (monotonic nanoseconds; 0 when the controller saw it).
    private var startsEnded: UInt64 = 0
    /// Wake-ups of another thread to hand it the baton (the controller's included), and steps whose
    /// thread kept it.
    private var handOffs = 0
    private var kept = 0
    /// Threads that have run code and not finished, and the threads that took a step while another
    /// of those was between two points (or were between two points meanwhile): the threads whose
    /// code this execution interleaved with another's.
    private var started = Set<Int>()
    private var interleaved = Set<Int>()

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
        result.isAsync = program.isAsync
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
            result.failureSeen = failureSeen
            lap(\.check)
            result.timing = timing
            HandOffCounts.add(handOffs: handOffs, kept: kept, steps: steps.count)
            return result
        }
        strategy.beginExecution()
        self.strategy = strategy
        self.stepBound = stepBound
        var timing = ExplorationTiming()
        var phase = DispatchTime.now().uptimeNanoseconds
        /// Ends the phase running now (at `end`, by default now), adding its seconds to `part`.
        func lap(_ part: WritableKeyPath<ExplorationTiming, Double>, at end: UInt64? = nil) {
            let now = end ?? DispatchTime.now().uptimeNanoseconds
            timing[keyPath: part] += Double(now &- phase) / 1e9
            phase = now
        }
        /// The running thread has held the baton for the stall limit: the execution ends stuck.
        func stuck() -> ExecutionResult {
            threadsDecide = false
            let thread = running ?? steps.last?.thread ?? 0
            let after = steps.last(where: { $0.thread == thread })?.operation ?? "start"
            return result(.stuck(thread: thread, after: after, seconds: stallTimeout))
        }
        lock.lock()
        defer { lock.unlock() }
        // A thread left running (stuck) that reaches a point later gives the baton back, and decides
        // nothing: the strategy has moved on.
        defer { threadsDecide = false }
        programThreads = count
        unstarted = program.threads.enumerated().map { index, body in
            let logical = LogicalThread(id: index, execution: self)
            return ThreadStart {
                Race.$hook.withValue(logical) {
                    logical.execution.awaitTurn(index)
                    do { try body() } catch { logical.execution.record(error, of: index) }
                }
            } last: {
                logical.execution.finish(index)
            }
        }
        // Start each thread: paused at its start, or running its set-up to its first point.
        if startPoints {
            for index in 0..<count { state.pause(index, at: PlainPoint(name: "start", footprint: startFootprint)) }
        } else if schedulesJobs || count == 0 {
            // An async thread gives the baton back when its task's first job is enqueued (`runTask`).
            for index in 0..<count {
                handOff(to: index)
                if !awaitBaton(timeout: stallTimeout) { return stuck() }
            }
        } else {
            // Each thread, at its first point (or its end), starts the next (`passBaton`); the last
            // one goes on to the steps, which the threads decide until the baton comes back.
            threadsDecide = stateLog == nil
            toStart = 1
            handOff(to: 0)
            if !awaitBaton(timeout: stallTimeout) { return stuck() }
        }
        toStart = Int.max
        if startsEnded == 0 { noteStartsEnded() }
        if startsEnded != 0 {
            lap(\.threads, at: startsEnded)
        } else {
            lap(\.threads)
        }
        threadsDecide = stateLog == nil && !schedulesJobs
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
            handOff(to: beginStep(choosingAmong: enabled))
            if !awaitBaton(timeout: stallTimeout) { return stuck() }
        }
        threadsDecide = false
        lap(\.steps)
        if let (thread, message) = errors.min(by: { $0.key < $1.key }) {
            return result(.threw(thread: thread, message: message))
        }
        lock.unlock()
        let broken = program.invariant()
        lock.lock()
        return result(broken.map(ExecutionOutcome.invariantBroken) ?? .passed)
    }

    // MARK: - Steps (lock held)

    /// Every program thread has started: a synchronous thread started without a start point ran
    /// its set-up before its first point, so it counts as started for `interleaved`.
    private func noteStartsEnded() {
        if !startPoints && !schedulesJobs {
            started = Set((0..<programThreads).filter { !state.isFinished($0) })
        }
    }

    /// Asks the strategy which of `enabled` runs next and begins that thread's step; returns it.
    /// The caller gives it the baton.
    private func beginStep(choosingAmong enabled: [Int]) -> Int {
        guard let strategy else { preconditionFailure("a step began outside an execution") }
        var decision = SchedulingDecision(
            enabled: enabled,
            current: current,
            step: steps.count,
            pending: state.pending,
            previousStep: footprints.count == steps.count ? footprints.last : .everything,
            spawned: state.spawned
        )
        decision.failureSeen = failureSeen
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
        return chosen
    }

    /// Called by thread `index`, which held the baton and has just paused or finished: when threads
    /// decide and only the strategy's choice is left to make, begins the next step and gives that
    /// thread the baton; otherwise gives the baton back to the controller, which looks again.
    ///
    /// - Returns: whom to wake once the lock is released (nobody when `index` keeps the baton).
    private func passBaton(from index: Int) -> Wake {
        guard running == index else { return giveBack() }
        // The start phase: each program thread, once it reached its first point, starts the next.
        if toStart < programThreads {
            toStart += 1
            return give(to: toStart - 1)
        }
        if toStart == programThreads && startsEnded == 0 {
            startsEnded = DispatchTime.now().uptimeNanoseconds
            noteStartsEnded()
        }
        guard threadsDecide else { return giveBack() }
        if let footprint = state.endStep() { footprints.append(footprint) }
        // What the controller's loop checks before it chooses, in the same order; it finds the same
        // (and the step's footprint already taken) when it is woken.
        var enabled: [Int] = []
        var unfinished = false
        for thread in 0..<state.threadCount where !state.isFinished(thread) {
            unfinished = true
            if state.canProceed(thread) { enabled.append(thread) }
        }
        guard unfinished, !enabled.isEmpty, steps.count < stepBound else { return giveBack() }
        let chosen = beginStep(choosingAmong: enabled)
        if chosen == index {
            kept += 1
            givenAt = DispatchTime.now().uptimeNanoseconds
            return .nobody
        }
        return give(to: chosen)
    }

    // MARK: - Hand-offs (lock held)

    /// How a thread is woken once the lock is released.
    private enum Wake {
        case nobody
        /// A thread paused at a point, on its turn's semaphore.
        case turn(DispatchSemaphore)
        /// A program thread not started yet: its body goes to a parked thread.
        case start(ThreadStart)
        case controller(ParkingCondition)

        func perform() {
            switch self {
            case .nobody: break
            case .turn(let turn): turn.signal()
            case .start(let start): ParkedThreads.shared.run(start.body, last: start.last)
            case .controller(let condition): condition.signal()
            }
        }
    }

    /// A thread's body and its end, as `ParkedThreads` runs them.
    struct ThreadStart {
        let body: @Sendable () -> Void
        let last: @Sendable () -> Void
    }

    /// The thread allowed to run; nil while the controller decides.
    private(set) var running: Int? {
        get {
            let thread = baton.load(ordering: .relaxed)
            return thread < 0 ? nil : thread
        }
        set { baton.store(newValue ?? -1, ordering: .releasing) }
    }

    /// Gives the baton to `thread`; returns how to wake it once the lock is released.
    private func give(to thread: Int) -> Wake {
        running = thread
        givenAt = DispatchTime.now().uptimeNanoseconds
        handOffs += 1
        if thread < unstarted.count, let start = unstarted[thread] {
            unstarted[thread] = nil
            return .start(start)
        }
        return .turn(turn(of: thread))
    }

    /// Gives the baton back to the controller; returns how to wake it.
    private func giveBack() -> Wake {
        running = nil
        handOffs += 1
        return .controller(controllerWakeUp)
    }

    /// As the controller: gives the baton to `thread` and wakes it (it alone: no other thread's wait
    /// ends), releasing the lock meanwhile.
    private func handOff(to thread: Int) {
        let wake = give(to: thread)
        lock.unlock()
        wake.perform()
        lock.lock()
    }

    /// Takes the baton back from the thread running (or from no one) and wakes the controller.
    func takeBack() {
        giveBack().perform()
    }

    /// Wakes the controller to look again: the baton came back, or the state changed in a way that
    /// can let a thread go on (`awaitOutsideJob`).
    func wakeController() {
        controllerWakeUp.signal()
    }

    /// The semaphore thread `thread` waits on for its turn.
    private func turn(of thread: Int) -> DispatchSemaphore {
        while turns.count <= thread { turns.append(DispatchSemaphore(value: 0)) }
        return turns[thread]
    }

    /// Waits, without the lock, until `thread` has the baton. A wake-up left from a hand-off that
    /// it saw without waiting ends a wait early: it only looks again.
    private func awaitBaton(for thread: Int, on turn: DispatchSemaphore) {
        while baton.load(ordering: .acquiring) != thread { turn.wait() }
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

    /// Waits until the baton comes back to the controller; false when the thread holding it has
    /// held it for `timeout` seconds (threads that hand it on to each other are no stall).
    private func awaitBaton(timeout: Double) -> Bool {
        while running != nil {
            let held = Double(DispatchTime.now().uptimeNanoseconds &- givenAt) / 1e9
            if held >= timeout { return false }
            _ = awaitWakeUp(until: Date(timeIntervalSinceNow: timeout - held))
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
        threadsDecide = false
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
            handOff(to: chosen)
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

    /// Waits until `index` has the baton (a thread's start, a spawned body's).
    func awaitTurn(_ index: Int) {
        lock.lock()
        let turn = turn(of: index)
        lock.unlock()
        awaitBaton(for: index, on: turn)
        lock.lock()
        trace.resumed(index)
        lock.unlock()
    }

    /// Called by a running thread at a scheduling point: hand the baton on and wait for a turn.
    func pause(_ index: Int, at point: any SchedulingPoint) {
        lock.lock()
        state.pause(index, at: point)
        trace.paused(index, at: point.name)
        let wake = passBaton(from: index)
        if running == index {
            lock.unlock()
            return
        }
        let turn = turn(of: index)
        lock.unlock()
        wake.perform()
        awaitBaton(for: index, on: turn)
        // A synchronous thread stays on the real thread it started on (`awaitTurn` noted it); a
        // task's next job may run on another.
        guard schedulesJobs else { return }
        lock.lock()
        trace.resumed(index)
        lock.unlock()
    }

    /// Runs `body`, then `last`, on a real thread of its own for thread `index` (just spawned),
    /// once it first gets the baton: until then no real thread waits for it.
    func start(_ index: Int, _ body: @escaping @Sendable () -> Void, last: @escaping @Sendable () -> Void) {
        lock.lock()
        let start = ThreadStart(body: body, last: last)
        if running == index {
            // Given the baton before its body was known (no thread decides between a spawn and
            // its start, but nothing depends on that).
            lock.unlock()
            ParkedThreads.shared.run(body, last: last)
            return
        }
        while unstarted.count <= index { unstarted.append(nil) }
        unstarted[index] = start
        lock.unlock()
    }

    /// Runs `body` on the state under the lock: a model update between two points.
    func withState<Result>(_ body: (ExecutionState) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(state)
    }

    func finish(_ index: Int) {
        lock.lock()
        // A thread whose task finished it (`runTask`) no longer holds the baton.
        if state.isFinished(index) {
            lock.unlock()
            return
        }
        state.finish(index)
        var wake = Wake.nobody
        if running == index {
            wake = passBaton(from: index)
        } else {
            wakeController()
        }
        lock.unlock()
        wake.perform()
    }

    func record(_ error: any Error, of index: Int) {
        lock.lock()
        errors[index] = String(describing: error)
        lock.unlock()
    }

    /// Keeps `what`, seen by thread `index`, as the execution's first failure seen, with the step
    /// it was seen in: only while steps run and `index` holds the baton for the step the schedule
    /// names last. Outside a step (set-up, the drain after a deadlock or the step bound) no step
    /// can be named, and nothing is kept.
    func noteFailureSeen(_ what: () -> String, by index: Int) {
        lock.lock()
        let step = steps.count
        let keeps =
            failureSeen == nil && !state.freeRunning && running == index && steps.last?.thread == index
        lock.unlock()
        guard keeps else { return }
        // Described without the lock: the description may take locks of the code's own. Only the
        // thread holding the baton runs, so the step cannot change meanwhile.
        let seen = FailureSeen(step: step, thread: index, what: what())
        lock.lock()
        if failureSeen == nil { failureSeen = seen }
        lock.unlock()
    }
}

/// Hand-offs between real threads, summed over every execution in the process, for benchmarks:
/// what a schedule costs in wake-ups, counted rather than timed.
package enum HandOffCounts {
    private static let handOffs = Atomic<Int>(0)
    private static let kept = Atomic<Int>(0)
    private static let steps = Atomic<Int>(0)
    private static let executions = Atomic<Int>(0)

    /// Counts so far: baton hand-offs that woke another thread (a thread's start and the
    /// controller's wake-ups included), steps whose thread kept the baton (no wake-up), steps, and
    /// executions.
    package static var now: (handOffs: Int, kept: Int, steps: Int, executions: Int) {
        (
            handOffs.load(ordering: .relaxed), kept.load(ordering: .relaxed), steps.load(ordering: .relaxed),
            executions.load(ordering: .relaxed)
        )
    }

    static func add(handOffs: Int, kept: Int, steps: Int) {
        Self.handOffs.add(handOffs, ordering: .relaxed)
        Self.kept.add(kept, ordering: .relaxed)
        Self.steps.add(steps, ordering: .relaxed)
        executions.add(1, ordering: .relaxed)
    }
}

/// The states of one execution, as its program describes them (`Exploration`'s `describeState`):
/// the first before any step, then one after each step (the last one also after a step that ended
/// the execution, before the invariant ran).
final class StateLog: @unchecked Sendable {
    /// Only touched by the controller's thread (and by a strategy it calls).
    var states: [String] = []
}

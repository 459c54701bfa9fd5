import Foundation

/// Runs tasks of a parallel search (`ParallelExploration`) in other processes: the racelab tool's
/// worker processes, copies of the tool that explore the same variant.
package protocol ExplorationWorkers: Sendable {
    /// Jobs in all, the coordinator's own included (`ExplorationOptions.jobs`).
    var jobs: Int { get }

    /// Runs `batch` (`Explorer.runTasks`'s input) in a new process and returns its reply; nil when
    /// the process could not start or ended without one (the coordinator then runs the tasks itself).
    func run(batch: String) -> String?
}

/// A dfs search (reductions none and dpor) split into tasks (`ExplorationTask`) run by the
/// coordinator and by worker processes at once, and merged into the report the sequential search
/// makes.
///
/// Prefix splitting rather than work stealing: the decisions above `splitDepth` form a small trie
/// that the coordinator keeps, and each task searches below one path of it. Without sleep sets, the
/// search below a fixed prefix is the same whatever is searched elsewhere (a decision's choices
/// grow only from executions through it), so the set of executions is the closure of what the
/// tasks ask for (`FrozenDecision.requested`), whatever order they run in. The coordinator then
/// replays the sequential order over the trie (at a decision, the first option's subtree, then
/// repeatedly the lowest option asked for and not done, as `SearchTree` backtracks) and feeds each
/// task's records through the sequential search's own tally (`ExplorationTally`): the schedule and
/// trace counts, the first failing schedule, the shortest failure and where the search stops are
/// those of one job, by construction.
///
/// `.states` keeps one visited-state cache for the whole search, so what it skips depends on the
/// order: it runs as one job, as pct and random do. Async explorations run as one job too.
final class ParallelExploration {
    /// Decisions above this depth are the coordinator's. Each decision offers 2–4 threads in typical
    /// programs, so six decisions make tens to hundreds of tasks: many more than jobs, so that the
    /// load balances when tasks differ in size, and few enough that the coordinator's trie and its
    /// replays of the sequential order stay cheap.
    static let defaultSplitDepth = 6
    /// Seconds the coordinator searches alone before it starts workers: a small search never pays
    /// for starting processes, and the step bound is measured by then.
    /// `RACELAB_WORKER_DELAY` (seconds) replaces it: 0 lets a test send tasks of small searches to
    /// workers.
    static let workerDelay =
        ProcessInfo.processInfo.environment["RACELAB_WORKER_DELAY"].flatMap(Double.init) ?? 0.2
    /// The warning of a search whose program made different choices under the same prefix.
    static let nondeterministicWarning =
        "the program made different choices under the same schedule prefix; counts are not exact"

    /// What every task of one search runs with.
    struct Setting: Sendable {
        let exploration: Exploration
        let options: ExplorationOptions
        let threads: Int
        let fingerprint: String
        let splitDepth: Int
        let startPoints: Bool

        init(exploration: Exploration, options: ExplorationOptions, splitDepth: Int, startPoints: Bool) {
            var options = options
            options.reduction = options.reduction(for: exploration)
            options.schedulesJobs = options.schedulesJobs(for: exploration)
            self.exploration = exploration
            self.options = options
            threads = options.threads ?? exploration.defaultThreads
            fingerprint = exploration.fingerprint(marks: options.marks)
            self.splitDepth = splitDepth
            self.startPoints = startPoints
        }

        /// Runs `task`'s executions, at most `recordLimit` of them.
        ///
        /// - Parameter measuring: whether the first execution that finishes sets the step bound.
        func run(
            _ task: ExplorationTask,
            stepBound: Int,
            measuring: Bool,
            recordLimit: Int,
            measured: (Int) -> Void = { _ in },
            stopped: () -> Bool = { false }
        ) throws -> TaskOutcome {
            guard let search = options.makeStrategy(threads: threads) as? any TaskSearch else {
                preconditionFailure("only an exhaustive search runs as tasks")
            }
            search.freeze(prefix: task.prefix, depth: splitDepth)
            var outcome = TaskOutcome()
            var bound = stepBound
            var measuring = measuring
            outcome.truncated = true
            while outcome.records.count < recordLimit && !stopped() {
                search.beginExecution()
                let setUp = DispatchTime.now().uptimeNanoseconds
                let program = try exploration.makeProgram(threads)
                outcome.isAsync = program.isAsync
                let setUpSeconds = secondsSince(setUp)
                let result = execute(program, strategy: search, stepBound: bound)
                if !startPoints && task.prefix.isEmpty && outcome.records.isEmpty
                    && Explorer.needsStartPoints(result, async: program.isAsync && options.schedulesJobs)
                {
                    outcome.needsStartPoints = true
                    return outcome
                }
                let analysis = DispatchTime.now().uptimeNanoseconds
                let more = search.endExecution(result)
                var record = ExecutionRecord(result, setUp: setUpSeconds, trace: search.lastTrace)
                record.timing.analysis = secondsSince(analysis)
                outcome.records.append(record)
                switch record.kind {
                case .stuck, .unfinished: break
                case .passed, .failed, .error:
                    if measuring {
                        bound = StepBound.measured(from: record.stepCount)
                        measuring = false
                        measured(bound)
                    }
                }
                // A stuck thread or a livelock ends the sequential search there.
                if record.kind == .stuck || (record.kind == .unfinished && record.threadsLeftRunning) { break }
                if !more {
                    outcome.truncated = false
                    break
                }
            }
            outcome.frozen = search.frozenDecisions()
            outcome.nondeterministic = search.nondeterministic
            return outcome
        }

        /// Runs the execution of `record` again, for a record from another process that the report
        /// keeps.
        func replay(_ record: ExecutionRecord, stepBound: Int) throws -> ExecutionResult {
            if let result = record.result { return result }
            let program = try exploration.makeProgram(threads)
            let schedule = Schedule(threads: threads, choices: record.choices ?? [])
            return execute(program, strategy: ReplayStrategy(schedule), stepBound: stepBound)
        }

        private func execute(
            _ program: ExplorableProgram,
            strategy: any SchedulingStrategy,
            stepBound: Int
        ) -> ExecutionResult {
            exploration.execute(
                program,
                strategy: strategy,
                stepBound: stepBound,
                options: options,
                startPoints: startPoints,
                fingerprint: fingerprint
            )
        }
    }

    /// How the search ended.
    enum Ending {
        /// The first execution needs start points: the search starts again with them.
        case restartWithStartPoints
        /// The tally holds the search.
        case done(isAsync: Bool, nondeterministic: Bool)
    }

    /// A decision of the trie above the split depth.
    private struct Node {
        let options: [Int]
        /// The task whose spine opened it: its first option's subtree is that task's.
        let owner: Int
        /// Option indices, as in the sequential order of the trie.
        let rank: [Int]
        /// The task of each option asked for but the first.
        var children: [Int: Int] = [:]
    }

    private enum State {
        case pending
        /// A worker could not run it: the coordinator runs it itself, when it comes in order.
        case coordinatorOnly
        case running
        case done
    }

    /// What the threads that run tasks say: a worker's reply, the coordinator's own task done, a
    /// step bound measured.
    private enum Event {
        case worker(tasks: [Int], reply: String?)
        case local(task: Int, outcome: Result<TaskOutcome, any Error>, seconds: Double)
        case measured(Int)
    }

    /// Events from the threads that run tasks, and the flag that stops the coordinator's own task.
    private final class Mailbox: @unchecked Sendable {
        let condition = NSCondition()
        private var events: [Event] = []
        private var stopping = false

        func post(_ event: Event) {
            condition.lock()
            events.append(event)
            condition.signal()
            condition.unlock()
        }

        func waitForEvent() {
            condition.lock()
            while events.isEmpty { condition.wait() }
            condition.unlock()
        }

        func take() -> [Event] {
            condition.lock()
            defer { condition.unlock() }
            let taken = events
            events = []
            return taken
        }

        var stopped: Bool {
            get { condition.withLock { stopping } }
            set { condition.withLock { stopping = newValue } }
        }
    }

    let setting: Setting
    private let workers: (any ExplorationWorkers)?
    /// Tests: which of the runnable tasks the coordinator runs next (any order gives the same report).
    private let pick: ((Int) -> Int)?
    private var tasks: [ExplorationTask] = []
    private var ranks: [[Int]] = []
    private var states: [State] = []
    private var outcomes: [TaskOutcome?] = []
    private var nodes: [[Int]: Node] = [:]

    /// A parallel search of `exploration`, or nil when it runs as one job (one job asked for, a
    /// strategy or reduction that does not split, an async exploration, whose Swift concurrency
    /// jobs the explorer's executor runs in one process at a time).
    init?(
        exploration: Exploration,
        options: ExplorationOptions,
        startPoints: Bool,
        workers: (any ExplorationWorkers)?,
        splitDepth: Int = defaultSplitDepth,
        pick: ((Int) -> Int)? = nil
    ) {
        let setting = Setting(
            exploration: exploration,
            options: options,
            splitDepth: splitDepth,
            startPoints: startPoints
        )
        guard Self.splits(setting.options), !exploration.isAsync, (workers?.jobs ?? 1) > 1 || pick != nil else {
            return nil
        }
        self.setting = setting
        self.workers = workers
        self.pick = pick
    }

    /// Whether a search with `options` (reduction resolved) can run as tasks.
    static func splits(_ options: ExplorationOptions) -> Bool {
        options.splitsIntoTasks
    }

    private func addTask(_ prefix: [Int], rank: [Int]) -> Int {
        tasks.append(ExplorationTask(prefix: prefix))
        ranks.append(rank)
        states.append(.pending)
        outcomes.append(nil)
        return tasks.count - 1
    }

    /// Adds a finished task's decisions to the trie, and a task for each option asked for anew.
    private func integrate(_ task: Int, _ outcome: TaskOutcome) {
        outcomes[task] = outcome
        states[task] = .done
        var path: [Int] = []
        var rank: [Int] = []
        for decision in outcome.frozen {
            if nodes[path] == nil { nodes[path] = Node(options: decision.options, owner: task, rank: rank) }
            for option in decision.requested where option != 0 && nodes[path]?.children[option] == nil {
                let child = addTask(path + [decision.options[option]], rank: rank + [option])
                nodes[path]?.children[option] = child
            }
            rank.append(decision.options.firstIndex(of: decision.thread) ?? 0)
            path.append(decision.thread)
        }
    }

    /// The finished tasks in the order a sequential search runs their executions, up to the first
    /// task not finished (nil when every task is in the order).
    private func sequentialOrder() -> (order: [Int], missing: Int?) {
        var order: [Int] = []
        var requested: [[Int]: Set<Int>] = [:]
        var missing: Int?

        func emit(_ task: Int) {
            order.append(task)
            var path: [Int] = []
            for decision in outcomes[task]?.frozen ?? [] {
                requested[path, default: []].formUnion(decision.requested)
                path.append(decision.thread)
            }
        }
        // The subtree at `path`, whose executions begin with `task`'s.
        func subtree(_ path: [Int], of task: Int) -> Bool {
            guard outcomes[task] != nil else {
                missing = task
                return false
            }
            guard let node = nodes[path] else {
                emit(task)
                return true
            }
            var done: Set<Int> = [0]
            guard subtree(path + [node.options[0]], of: node.owner) else { return false }
            while let option = requested[path, default: []].subtracting(done).min() {
                done.insert(option)
                guard let child = node.children[option] else { continue }
                guard subtree(path + [node.options[option]], of: child) else { return false }
            }
            return true
        }
        _ = subtree([], of: 0)
        return (order, missing)
    }

    /// Runs the search and folds its executions into `tally` in sequential order.
    ///
    /// The coordinator's own tasks run on a thread of their own, so that it hands out work to the
    /// workers as soon as they answer, and starts them as soon as the step bound is measured (by the
    /// first execution that finishes, within the first task).
    func run(into tally: inout ExplorationTally) throws -> Ending {
        _ = addTask([], rank: [])
        let mailbox = Mailbox()
        let started = DispatchTime.now().uptimeNanoseconds
        var running = 0
        var localTask: Int?
        var folded = 0
        var localSeconds = 0.0
        var localTasks = 0
        var nondeterministic = false
        var isAsync = false
        var bound: Int? = tally.measuring ? nil : tally.stepBound
        var ending: Ending?
        var failure: (any Error)?
        defer {
            // The coordinator's own task stops at its next execution; no thread of it outlives the search.
            mailbox.stopped = true
            while localTask != nil {
                mailbox.waitForEvent()
                for event in mailbox.take() {
                    if case .local = event { localTask = nil }
                }
            }
        }
        search: while true {
            for event in mailbox.take() {
                switch event {
                case .worker(let batch, let reply):
                    running -= 1
                    let decoded = reply.flatMap { try? JSONDecoder().decode([TaskOutcome].self, from: Data($0.utf8)) }
                    if let decoded, decoded.count == batch.count {
                        for (task, outcome) in zip(batch, decoded) { integrate(task, outcome) }
                    } else {
                        for task in batch { states[task] = .coordinatorOnly }
                    }
                case .local(let task, let result, let seconds):
                    localTask = nil
                    localSeconds += seconds
                    localTasks += 1
                    switch result {
                    case .success(let outcome):
                        if outcome.needsStartPoints {
                            ending = .restartWithStartPoints
                        } else {
                            integrate(task, outcome)
                        }
                    case .failure(let error): failure = error
                    }
                case .measured(let measured):
                    bound = bound ?? measured
                }
            }
            if let failure { throw failure }
            if let ending { return ending }
            let (order, missing) = sequentialOrder()
            while folded < order.count {
                let outcome = outcomes[order[folded]]!
                folded += 1
                nondeterministic = nondeterministic || outcome.nondeterministic
                isAsync = outcome.isAsync
                guard try count(outcome, into: &tally) else { break search }
            }
            guard let missing else {
                tally.exhaustive = true
                break
            }
            if tally.stopsBeforeNext() { break }
            if !tally.measuring { bound = tally.stepBound }
            let limit = max(1, tally.scheduleLimit - tally.schedules)
            if let workers, let bound, pick == nil, secondsSince(started) >= Self.workerDelay {
                var queue = states.indices.filter { states[$0] == .pending && $0 != missing }
                    .sorted { ranks[$0].lexicographicallyPrecedes(ranks[$1]) }
                while running < workers.jobs - 1 && !queue.isEmpty {
                    // Batches of about a second of work, as measured on the coordinator's tasks, so
                    // that starting a process costs little; never more than a fair share of the queue.
                    let perTask = localTasks > 0 ? localSeconds / Double(localTasks) : 0.01
                    let share = max(1, queue.count / workers.jobs)
                    let size = min(share, max(1, Int(1.0 / max(perTask, 1e-4))))
                    let batch = Array(queue.prefix(size))
                    queue.removeFirst(batch.count)
                    let text = try JSONText.encode(
                        TaskBatch(
                            options: setting.options,
                            splitDepth: setting.splitDepth,
                            startPoints: setting.startPoints,
                            stepBound: bound,
                            tasks: batch.map { tasks[$0] },
                            recordLimits: batch.map { _ in limit }
                        ),
                        pretty: false
                    )
                    for task in batch { states[task] = .running }
                    running += 1
                    let thread = Thread { [workers] in
                        mailbox.post(.worker(tasks: batch, reply: workers.run(batch: text)))
                    }
                    thread.start()
                }
            }
            if localTask == nil {
                var local: Int?
                if states[missing] == .pending || states[missing] == .coordinatorOnly {
                    local = missing
                }
                if bound != nil {
                    let candidates = states.indices.filter { states[$0] == .pending }
                    if let pick, !candidates.isEmpty {
                        local = candidates[pick(candidates.count)]
                    } else if local == nil {
                        local = candidates.min { ranks[$0].lexicographicallyPrecedes(ranks[$1]) }
                    }
                }
                if let task = local {
                    // The next task in sequential order measures the bound when it is not known yet.
                    let measuring = task == missing && tally.measuring
                    let stepBound = measuring ? tally.stepBound : (bound ?? tally.stepBound)
                    states[task] = .running
                    localTask = task
                    let (setting, exploring) = (setting, tasks[task])
                    let thread = Thread {
                        let begun = DispatchTime.now().uptimeNanoseconds
                        let outcome = Result { () throws(any Error) -> TaskOutcome in
                            try setting.run(
                                exploring,
                                stepBound: stepBound,
                                measuring: measuring,
                                recordLimit: limit,
                                measured: { mailbox.post(.measured($0)) },
                                stopped: { mailbox.stopped }
                            )
                        }
                        mailbox.post(.local(task: task, outcome: outcome, seconds: secondsSince(begun)))
                    }
                    thread.stackSize = 8 << 20
                    thread.start()
                }
            }
            // Nothing runs: every task left waits for one that is not done (cannot happen).
            if localTask == nil && running == 0 { break }
            mailbox.waitForEvent()
        }
        return .done(isAsync: isAsync, nondeterministic: nondeterministic)
    }

    /// Counts `outcome`'s records into `tally` in the order its task ran them; false when the
    /// search ends within them (the schedule limit, a stuck thread, a livelock, a task cut short).
    private func count(_ outcome: TaskOutcome, into tally: inout ExplorationTally) throws -> Bool {
        for record in outcome.records {
            if tally.stopsBeforeNext() { return false }
            // A record the report keeps ran with the bound before it.
            let bound = tally.stepBound
            guard try tally.consume(record, result: { try setting.replay($0, stepBound: bound) }) else { return false }
        }
        // A task cut at its record limit, or at a stuck thread, ends the search within it.
        return !outcome.truncated
    }

    /// Folds the outcomes of a sharded search's tasks (by prefix) into `tally` in sequential order:
    /// the tasks the requests reach from the root, as `run` does.
    func fold(
        _ outcomes: [[Int]: TaskOutcome],
        into tally: inout ExplorationTally
    ) throws -> (isAsync: Bool, nondeterministic: Bool) {
        _ = addTask([], rank: [])
        var next = 0
        while next < tasks.count {
            guard let outcome = outcomes[tasks[next].prefix] else {
                throw ShardMergeRefusal(description: "no shard ran the schedules after \(tasks[next].prefix)")
            }
            integrate(next, outcome)
            next += 1
        }
        let (order, _) = sequentialOrder()
        var isAsync = false
        var nondeterministic = false
        search: do {
            for task in order {
                let outcome = self.outcomes[task]!
                nondeterministic = nondeterministic || outcome.nondeterministic
                isAsync = outcome.isAsync
                guard try count(outcome, into: &tally) else { break search }
            }
            tally.exhaustive = true
        }
        return (isAsync, nondeterministic)
    }
}

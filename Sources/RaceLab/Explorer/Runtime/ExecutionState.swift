/// Everything the controller of one execution knows: where each logical thread is paused, which
/// have finished, the threads started while it ran, and the primitives' models.
///
/// Only touched with the execution's lock held (by the controller, or by a logical thread through
/// `LogicalThread.withState`), so it needs no lock of its own.
final class ExecutionState {
    /// Per logical thread, indexed by id: the program's threads first, then those started while it
    /// runs, in the order they were started. Nil while the thread runs (or once it finished).
    private(set) var pending: [(any SchedulingPoint)?]
    private(set) var finished: [Bool]
    private(set) var spawned: [SpawnedThread] = []
    /// After a deadlock or the step bound: primitives no longer exclude, so that every thread can
    /// be run to its end (see `ControlledExecution.drain`).
    var freeRunning = false
    private var models: [ObjectIdentifier: any ModelObject] = [:]
    /// What the step running now has touched so far; nil between steps, while the controller
    /// decides (its own look at the models touches nothing).
    private var step: Footprint?

    init(threads: Int) {
        pending = Array(repeating: nil, count: threads)
        finished = Array(repeating: false, count: threads)
    }

    var threadCount: Int { pending.count }

    /// The model of `object` in this execution, made by `make` the first time it is asked for.
    /// During a step, the step's footprint records `object` with `access`: a read for a use that
    /// commutes with every other read of it (see `QueueModel.access`), a write by default.
    func model<Model: ModelObject>(
        of object: ObjectIdentifier,
        access: Footprint.Access = .write,
        _ make: () -> Model
    ) -> Model {
        step?.insert(.object(object), access)
        step?.usedModel = true
        if let model = models[object] {
            guard let model = model as? Model else {
                preconditionFailure("one object, two models: \(type(of: model)) and \(Model.self)")
            }
            return model
        }
        let model = make()
        models[object] = model
        return model
    }

    func pause(_ thread: Int, at point: any SchedulingPoint) {
        pending[thread] = point
    }

    /// Takes the point `thread` is paused at: it is about to run.
    func resume(_ thread: Int) -> (any SchedulingPoint)? {
        defer { pending[thread] = nil }
        return pending[thread]
    }

    /// `thread` is about to perform the operation of `point`: from now until `endStep`, every model
    /// asked for is recorded in the step's footprint, with the point's own and the thread itself.
    func beginStep(of thread: Int, at point: any SchedulingPoint) {
        var footprint = point.footprint
        footprint.insert(.thread(thread))
        step = footprint
    }

    /// The footprint of the step that just ended, nil when none was running.
    func endStep() -> Footprint? {
        defer { step = nil }
        return step
    }

    func finish(_ thread: Int) {
        finished[thread] = true
    }

    func isFinished(_ thread: Int) -> Bool {
        finished[thread]
    }

    /// Adds a thread started by `parent`, paused before `first`; returns its id.
    func addThread(by parent: Int, name: String, first: any SchedulingPoint) -> Int {
        let id = pending.count
        step?.insert(.thread(id))
        pending.append(first)
        finished.append(false)
        spawned.append(SpawnedThread(thread: id, parent: parent, name: name))
        return id
    }

    /// Names spawned thread `thread` anew, once what it is becomes known (a task's own name).
    func rename(_ thread: Int, to name: String) {
        guard let index = spawned.firstIndex(where: { $0.thread == thread }) else { return }
        spawned[index] = SpawnedThread(thread: thread, parent: spawned[index].parent, name: name)
    }

    /// Whether `thread` can perform the operation it is paused at (a thread not paused can).
    func canProceed(_ thread: Int) -> Bool {
        pending[thread]?.canProceed(thread, in: self) ?? true
    }
}

/// What the explorer knows of one `RaceQueue` during an execution: the work items submitted to it,
/// in order, and which of them may start.
///
/// The rules are libdispatch's: a serial queue runs one item at a time, in submission order; on a
/// concurrent queue, items between two barriers may run side by side and start in any order,
/// while a barrier waits for every item before it and holds back every item after it.
final class QueueModel: ModelObject {
    enum State { case waiting, running, done }

    struct Item {
        let barrier: Bool
        /// The logical thread that runs it: the caller of `sync`, or the thread `async` started.
        let owner: Int
        var state: State = .waiting
    }

    let serial: Bool
    private(set) var items: [Item] = []
    /// For a thread resumed at a `sync`: the index of the item submitted for it.
    private var syncItems: [Int: Int] = [:]

    init(serial: Bool) {
        self.serial = serial
    }

    /// How submitting, starting or ending an item touches the queue, for partial-order reduction:
    /// a read for a plain item of a concurrent queue, a write otherwise. Plain items of a concurrent
    /// queue never hold one another back, so two of them commute in any of those steps; a barrier,
    /// or any item of a serial queue, orders itself against every other item.
    static func access(serial: Bool, barrier: Bool) -> Footprint.Access {
        serial || barrier ? .write : .read
    }

    /// Adds an item at the end; returns its index.
    func submit(barrier: Bool, owner: Int) -> Int {
        items.append(Item(barrier: barrier, owner: owner))
        return items.count - 1
    }

    func setState(_ state: State, of index: Int) {
        items[index].state = state
    }

    /// Whether item `index` may start now.
    func canStart(_ index: Int) -> Bool {
        blocker(of: index) == nil
    }

    /// The first earlier item that keeps item `index` from starting, if any.
    func blocker(of index: Int) -> Item? {
        blocker(barrier: items[index].barrier, before: index)
    }

    /// The item that keeps an item submitted now (a `sync`) from starting at once, if any.
    func blocker(ofNew barrier: Bool) -> Item? {
        blocker(barrier: barrier, before: items.count)
    }

    /// The item submitted and started for `thread` when its `sync` was chosen; nil when none was
    /// (the execution is being drained, and the thread was resumed without being chosen).
    func takeSyncItem(of thread: Int) -> Int? {
        syncItems.removeValue(forKey: thread)
    }

    fileprivate func startSync(barrier: Bool, by thread: Int) {
        let item = submit(barrier: barrier, owner: thread)
        setState(.running, of: item)
        syncItems[thread] = item
    }

    private func blocker(barrier: Bool, before index: Int) -> Item? {
        let exclusive = serial || barrier
        return items[..<index].first { item in
            item.state != .done && (exclusive || item.barrier)
        }
    }
}

/// Starting work item `item` of a `RaceQueue` (an `async` item), the first step of the logical
/// thread that runs it: able to go on once the queue would start it.
struct QueueItemStart: SchedulingPoint {
    let queue: ObjectIdentifier
    let serial: Bool
    let barrier: Bool
    let item: Int
    let name: String

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        model(in: state).canStart(item)
    }

    func holder(in state: ExecutionState) -> Int? {
        model(in: state).blocker(of: item)?.owner
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        model(in: state).setState(.running, of: item)
    }

    var footprint: Footprint { Footprint(.object(queue), QueueModel.access(serial: serial, barrier: barrier)) }

    private func model(in state: ExecutionState) -> QueueModel {
        state.model(of: queue, access: QueueModel.access(serial: serial, barrier: barrier)) {
            QueueModel(serial: serial)
        }
    }
}

/// Calling `sync` on a `RaceQueue`: able to go on once the queue would start an item submitted now;
/// the item is submitted and started in the same step, when the thread is chosen.
struct QueueSyncCall: SchedulingPoint {
    let queue: ObjectIdentifier
    let serial: Bool
    let barrier: Bool
    let name: String

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        model(in: state).blocker(ofNew: barrier) == nil
    }

    func holder(in state: ExecutionState) -> Int? {
        model(in: state).blocker(ofNew: barrier)?.owner
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        model(in: state).startSync(barrier: barrier, by: thread)
    }

    var footprint: Footprint { Footprint(.object(queue), QueueModel.access(serial: serial, barrier: barrier)) }

    private func model(in state: ExecutionState) -> QueueModel {
        state.model(of: queue, access: QueueModel.access(serial: serial, barrier: barrier)) {
            QueueModel(serial: serial)
        }
    }
}

/// What the explorer knows of one `RaceQueue` during an execution: the work items submitted to it,
/// in order, and which of them may start.
///
/// The rules are libdispatch's: a serial queue runs one item at a time, in submission order; on a
/// concurrent queue, items between two barriers may run side by side and start in any order,
/// while a barrier waits for every item before it and holds back every item after it.
struct QueueModel {
    enum State { case waiting, running, done }

    struct Item {
        let barrier: Bool
        /// The logical thread that runs it: the caller of `sync`, or the thread `async` started.
        let owner: Int
        var state: State = .waiting
    }

    let serial: Bool
    private(set) var items: [Item] = []

    init(serial: Bool) {
        self.serial = serial
    }

    /// Adds an item at the end; returns its index.
    mutating func submit(barrier: Bool, owner: Int) -> Int {
        items.append(Item(barrier: barrier, owner: owner))
        return items.count - 1
    }

    mutating func setState(_ state: State, of index: Int) {
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

    private func blocker(barrier: Bool, before index: Int) -> Item? {
        let exclusive = serial || barrier
        return items[..<index].first { item in
            item.state != .done && (exclusive || item.barrier)
        }
    }
}

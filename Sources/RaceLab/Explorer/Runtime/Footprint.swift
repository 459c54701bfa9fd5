/// What one step of an execution touched: the objects whose state it may read or change, and how,
/// so that a partial-order reduction can tell steps that commute from steps that do not.
///
/// A step is everything a thread does from one scheduling point to its next. Its footprint is what
/// the point declares (`Race.window(_:on:)`, `Race.window(_:reading:)`, a lock, a queue) plus every
/// primitive model the step used while it ran (a lock released, an item submitted to a queue) and
/// the thread itself. A point that declares nothing touches `everything`: it is dependent on every
/// other step, the safe default. Two steps of different threads are *independent* when every object
/// both touch is only read by both; then running them in either order leads to the same state.
///
/// The guarantee is only as good as the declarations: code between two points that touches shared
/// state outside what its point declares (and outside the primitives), or changes what it declared
/// it only reads, makes the reduction unsound.
struct Footprint: Equatable, Sendable {
    /// Something a step touches.
    enum Touch: Hashable, Sendable {
        /// A primitive or an object named with `on:` / `reading:`.
        case object(ObjectIdentifier)
        /// A logical thread: its steps, its start (by the step that spawned it) and its end (joins).
        case thread(Int)
    }

    /// How a step touches something. Two reads of one object commute; a write commutes with nothing
    /// else on that object.
    enum Access: Sendable {
        case read, write
    }

    /// True for a step whose point declared no object: dependent on every other step.
    private(set) var everything: Bool
    /// Each thing touched, and how: a write if the step wrote it at all.
    private(set) var touches: [Touch: Access]
    /// Whether the step used a primitive's model (a lock, a queue): it may have let a waiting
    /// thread go on. Recorded for steps that ran, never declared by a point.
    var usedModel = false

    static let everything = Footprint(everything: true)
    static let nothing = Footprint(everything: false)

    init(everything: Bool = false, touches: [Touch: Access] = [:]) {
        self.everything = everything
        self.touches = touches
    }

    /// A footprint of `object` alone with `access`, or of everything for nil.
    init(object: AnyObject?, access: Access = .write) {
        if let object {
            self.init(touches: [.object(ObjectIdentifier(object)): access])
        } else {
            self.init(everything: true)
        }
    }

    /// A footprint of one thing touched with `access`.
    init(_ touch: Touch, _ access: Access = .write) {
        self.init(touches: [touch: access])
    }

    /// Records `touch`; a write wins over a read of the same thing.
    mutating func insert(_ touch: Touch, _ access: Access = .write) {
        if touches[touch] != .write { touches[touch] = access }
    }

    mutating func formUnion(_ other: Footprint) {
        everything = everything || other.everything
        for (touch, access) in other.touches { insert(touch, access) }
    }

    /// The logical threads this step touched (its own, those it started or joined).
    var threads: [Int] {
        touches.keys.compactMap { touch in
            if case .thread(let thread) = touch { thread } else { nil }
        }
    }

    /// Whether `other` declares at least all this touches, as strongly (a write covers a read).
    func isCovered(by other: Footprint) -> Bool {
        if other.everything { return true }
        if everything { return false }
        return touches.allSatisfy { touch, access in
            guard let theirs = other.touches[touch] else { return false }
            return theirs == .write || access == .read
        }
    }

    /// Whether the two steps may not commute: one of them touches everything, or both touch one
    /// thing and at least one of them writes it.
    func isDependent(on other: Footprint) -> Bool {
        if everything || other.everything { return true }
        let (small, large) = touches.count <= other.touches.count ? (self, other) : (other, self)
        return small.touches.contains { touch, access in
            guard let theirs = large.touches[touch] else { return false }
            return access == .write || theirs == .write
        }
    }
}

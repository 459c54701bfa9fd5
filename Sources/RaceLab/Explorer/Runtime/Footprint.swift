/// What one step of an execution touched: the objects whose state it may read or change, so that
/// a partial-order reduction can tell steps that commute from steps that do not.
///
/// A step is everything a thread does from one scheduling point to its next. Its footprint is what
/// the point declares (`Race.window(_:on:)`, a lock, a queue) plus every primitive model the step
/// updated while it ran (a lock released, an item submitted to a queue) and the thread itself. A
/// point that declares nothing touches `everything`: it is dependent on every other step, the safe
/// default. Two steps of different threads are *independent* when their footprints share nothing;
/// then running them in either order leads to the same state.
///
/// The guarantee is only as good as the declarations: code between two points that touches shared
/// state outside what its point declares (and outside the primitives) makes the reduction unsound.
struct Footprint: Equatable, Sendable {
    /// Something a step touches.
    enum Touch: Hashable, Sendable {
        /// A primitive or an object named with `on:`.
        case object(ObjectIdentifier)
        /// A logical thread: its steps, its start (by the step that spawned it) and its end (joins).
        case thread(Int)
    }

    /// True for a step whose point declared no object: dependent on every other step.
    private(set) var everything: Bool
    private(set) var touches: Set<Touch>

    static let everything = Footprint(everything: true, touches: [])
    static let nothing = Footprint(everything: false, touches: [])

    init(everything: Bool = false, touches: Set<Touch> = []) {
        self.everything = everything
        self.touches = touches
    }

    /// A footprint of `object` alone, or of everything for nil.
    init(object: AnyObject?) {
        if let object { self.init(touches: [.object(ObjectIdentifier(object))]) } else { self.init(everything: true) }
    }

    mutating func insert(_ touch: Touch) {
        touches.insert(touch)
    }

    mutating func formUnion(_ other: Footprint) {
        everything = everything || other.everything
        touches.formUnion(other.touches)
    }

    /// Whether the two steps may not commute.
    func isDependent(on other: Footprint) -> Bool {
        everything || other.everything || !touches.isDisjoint(with: other.touches)
    }
}

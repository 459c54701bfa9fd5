/// The explorer's model of one `RaceGroup` during an execution: how many entered work items have
/// not left yet.
///
/// libdispatch's rules: `enter` adds one, `leave` takes one, and `wait` and `notify` wait until the
/// count is zero.
final class GroupModel: ModelObject {
    private(set) var outstanding = 0

    func enter() {
        outstanding += 1
    }

    func leave() {
        outstanding -= 1
    }
}

/// Waiting for a `RaceGroup` to empty (`wait()`, or the start of a `notify` block): able to go on
/// once every entered item has left. With `answer`, a `wait(timeout:)`: always able to go on, and
/// records whether the group was empty (else it timed out).
struct GroupWait: SchedulingPoint {
    let group: ObjectIdentifier
    /// `wait <name>`, `notify <name>`.
    let name: String
    var answer: AttemptAnswer? = nil

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        answer != nil || model(in: state).outstanding == 0
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        let empty = model(in: state).outstanding == 0
        answer?.value = empty
    }

    var footprint: Footprint { Footprint(.object(group)) }

    private func model(in state: ExecutionState) -> GroupModel {
        state.model(of: group, GroupModel.init)
    }
}

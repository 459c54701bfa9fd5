/// The explorer's model of one `RaceSemaphore` during an execution: its count.
///
/// libdispatch's rules: `signal` adds one and never waits; `wait` takes one, waiting while the
/// count is zero. The count starts at the semaphore's initial value in every execution.
final class SemaphoreModel: ModelObject {
    private(set) var count: Int

    init(value: Int) {
        count = value
    }

    func signal() {
        count += 1
    }

    fileprivate func take() {
        count -= 1
    }
}

/// Waiting on a `RaceSemaphore` (`wait()`): able to go on while its count is above zero; choosing
/// it takes one. With `timesOut`, a `wait(timeout:)`: always able to go on, since the wait may end
/// by timing out; it takes one only if the count allows, and records whether it did.
struct SemaphoreWait: SchedulingPoint {
    let semaphore: ObjectIdentifier
    let value: Int
    /// `wait <name>`.
    let name: String
    /// For a wait with a timeout: where the answer goes (took one, or timed out).
    var answer: AttemptAnswer? = nil

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        answer != nil || model(in: state).count > 0
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        let model = model(in: state)
        if let answer {
            answer.value = model.count > 0
            if !answer.value { return }
        }
        model.take()
    }

    var footprint: Footprint { Footprint(.object(semaphore)) }

    private func model(in state: ExecutionState) -> SemaphoreModel {
        state.model(of: semaphore) { SemaphoreModel(value: value) }
    }
}

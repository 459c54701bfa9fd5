import Dispatch

extension LogicalThread {
    /// Pauses at the point `makePoint` builds around a fresh answer, and returns the controller's
    /// answer from when the point was chosen: whether a `LockAttempt` took the lock, whether a timed
    /// wait succeeded.
    func attempt(_ makePoint: (AttemptAnswer) -> any SchedulingPoint) -> Bool {
        let answer = AttemptAnswer()
        pause(at: makePoint(answer))
        return withState { _ in answer.value }
    }

    /// A wait with a timeout: `.distantFuture` is `wait`; any other pauses at the point `makePoint`
    /// builds, which answers whether the wait succeeded where the search runs it.
    func timedWait(
        _ timeout: DispatchTime,
        wait: () -> Void,
        at makePoint: (AttemptAnswer) -> any SchedulingPoint
    ) -> DispatchTimeoutResult {
        if timeout == .distantFuture {
            wait()
            return .success
        }
        return attempt(makePoint) ? .success : .timedOut
    }
}

/// Where an execution's code first saw the failure its invariant reports (`Race.failureSeen(_:)`):
/// the step, the thread that ran it, and what it saw.
///
/// The invariant is checked once every thread has finished, so it says what broke, not when. Code
/// that can tell the moment (a reader that has just read two parts of two different states) says
/// so, and the explorer numbers that moment with the step it ran in, in the same execution. An
/// exploration whose code says nothing has none: the explorer never guesses the step.
public struct FailureSeen: Equatable, Sendable, Codable {
    /// The step it was seen in, numbered from 1 as timelines number them.
    public let step: Int
    /// The logical thread that saw it: the one that ran that step.
    public let thread: Int
    /// What it saw, in the code's words.
    public let what: String

    /// - Parameters:
    ///   - step: the step it was seen in, from 1.
    ///   - thread: the thread that ran that step.
    ///   - what: what it saw.
    public init(step: Int, thread: Int, what: String) {
        self.step = step
        self.thread = thread
        self.what = what
    }

    /// `invariant first seen broken at step 8 (thread 1): the UI saw …`, in a unit's name (`task`
    /// for async bodies).
    public func line(unit: String = "thread") -> String {
        "invariant first seen broken at step \(step) (\(unit) \(thread)): \(what)"
    }
}

/// Why a schedule cannot be replayed: a string that is malformed or names another program, or
/// choices the program cannot follow. A refused replay runs nothing that is reported as a verdict.
public struct ReplayRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The reason, in one line.
    public let reason: String

    /// A refusal with its reason, in one line.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

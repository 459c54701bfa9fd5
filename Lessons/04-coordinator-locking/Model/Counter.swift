/// The object the lesson's storage holds: one integer that every operation increments.
///
/// The article's test stores such a holder and increments it 10,000 times from
/// `concurrentPerform`, all through one storage; the final value must then be 10,000.
public struct Counter: Codable, Sendable, Equatable {
    public var value: Int

    public init(value: Int = 0) {
        self.value = value
    }
}

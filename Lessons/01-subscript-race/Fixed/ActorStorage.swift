import Foundation

/// The store as an actor: the actor runs one method at a time, so `contents[id] = data` is one
/// uninterrupted get-change-set. There is no queue to misuse, but every caller must `await`.
///
/// `store` has no suspension point inside it; an `await` between the read and the write would
/// reopen the window (lesson 3 is about exactly that).
public actor ActorStorage {
    private var contents: [String: Data] = [:]

    public init() {}

    public func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    public var numberOfItems: Int {
        contents.count
    }
}

import Foundation

/// Who a claim belongs to, in `OwnerScopedCoordinator`: the part `NSFileCoordinator` plays with
/// a file presenter or a purpose identifier.
///
/// Claims of one owner never wait for each other. That is right for one piece of code that claims
/// a file again while it already holds it; it is wrong the moment unrelated callers share an owner.
public struct ClaimOwner: Hashable, Sendable, CustomStringConvertible {
    private let id: UUID

    /// A new owner, distinct from every other.
    public init() {
        id = UUID()
    }

    public var description: String { "owner \(id.uuidString.prefix(8))" }
}

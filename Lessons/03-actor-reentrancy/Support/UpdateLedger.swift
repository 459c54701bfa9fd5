import Foundation

/// Which updates each trial's callers *believe* they applied, and to which item: what the audit
/// holds the final list to.
///
/// Kept outside the data source, behind an `NSLock`, so that it cannot be corrupted by the bug it
/// is there to catch.
public final class UpdateLedger: @unchecked Sendable {
    private let lock = NSLock()
    /// Update number to the id of the item it was applied to. Guarded by `lock`.
    private var applied: [Int: Int] = [:]

    public init() {}

    /// Records that update `update` was applied to the item `id`.
    public func record(update: Int, appliedTo id: Int) {
        lock.lock()
        defer { lock.unlock() }
        applied[update] = id
    }

    /// Every recorded update and its item id.
    public var entries: [Int: Int] {
        lock.lock()
        defer { lock.unlock() }
        return applied
    }
}

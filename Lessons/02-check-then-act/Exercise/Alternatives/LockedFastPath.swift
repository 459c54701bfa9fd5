// Another fix for exercise 2 that passes (CI checks that it PASSES): a fast path that reads the flag
// through a computed property taking the lock, then the locked check, work and set. The fast read
// is locked: no data race, so it must not be read as double-checked locking on a plain `Bool`.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var _didExecute = false
    private var didExecute: Bool {
        lock.withLock { _didExecute }
    }

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        if didExecute { return }
        lock.lock()
        defer { lock.unlock() }
        guard !_didExecute else { return }
        execute()
        _didExecute = true
    }
}

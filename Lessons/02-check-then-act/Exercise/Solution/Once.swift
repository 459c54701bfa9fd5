// Exercise 2, reference solution: the check and the set happen under one lock, so no thread can
// check while another is between its check and its set. `execute` runs with the lock held, so
// every caller returns after the work is done (the promise `dispatch_once` makes).
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var didExecute = false

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !didExecute else { return }
        execute()
        didExecute = true
    }
}

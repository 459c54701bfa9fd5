// expect-diagnosis: double-checked
// A wrong fix for exercise 2 (CI checks that it FAILS, read from the code): double-checked locking
// on a plain Bool, its fast path written `self.didExecute`: a data race, as without `self.`.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var didExecute = false

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        if self.didExecute { return }
        lock.lock()
        defer { lock.unlock() }
        guard !self.didExecute else { return }
        execute()
        self.didExecute = true
    }
}

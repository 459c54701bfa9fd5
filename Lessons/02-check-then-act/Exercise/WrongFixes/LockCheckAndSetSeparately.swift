// expect-diagnosis: lock-around-check
// A wrong fix for exercise 2 (CI checks that it FAILS, and that the checker reads from the code
// that the lock is let go between the check and the set): the flag is read under the lock, then
// set under it again in a second `withLock`, before the work. Two threads can both read `false`
// between the two; and a late caller that reads `true` returns while the work is still running.
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false
    private let lock = NSLock()

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        let done = lock.withLock { didExecute }
        guard !done else { return }
        Race.window("saw false → execute()")
        lock.withLock { didExecute = true }
        execute()
    }
}

// expect-diagnosis: double-checked
// A wrong fix for exercise 2 (CI checks that it FAILS, and that the checker reads why from the
// code): double-checked locking. `run` returns early if the flag is already set, reading it with no
// lock, then takes the lock and checks, runs and sets as the reference solution does. The work runs
// exactly once, so the run sees nothing wrong; but the unlocked read races with the set under the
// lock: a data race on a plain `Bool` (ThreadSanitizer reports it).
import Foundation
import RaceLab

final class Once: @unchecked Sendable {
    private var didExecute = false
    private let lock = NSLock()

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        if didExecute { return }  // fast path, no lock (double-checked locking)
        lock.lock()
        defer { lock.unlock() }
        guard !didExecute else { return }
        Race.window("saw false → execute()")
        execute()
        didExecute = true
    }
}

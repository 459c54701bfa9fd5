// Compiler probe · lesson 2 · lock
// Check and set under one NSLock, in a class without a Sendable annotation. Correct; rejected by
// Swift 6 when concurrent code captures it, because the compiler cannot tie the lock to the flag
// (it would accept it with `@unchecked Sendable`, or with Mutex<Bool>, which it can check).
import Foundation

final class LockedOnce {
    private let lock = NSLock()
    private var didExecute = false

    func run(_ work: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard !didExecute else { return }
        work()
        didExecute = true
    }
}

func runImportantWorkOnce(_ work: @Sendable () -> Void) {
    let once = LockedOnce()
    DispatchQueue.concurrentPerform(iterations: 10) { _ in
        once.run(work)
    }
}

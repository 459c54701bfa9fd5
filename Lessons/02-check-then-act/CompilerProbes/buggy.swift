// Compiler probe · lesson 2 · buggy
// The article's check-then-act: a local `var didExecute`, checked and then set by every iteration
// of concurrentPerform. Swift 6 rejects it: the closure runs concurrently, and mutating a captured
// `var` from it is a data race the compiler can prove. (The lesson's RacyOnce hides the same flag
// in an `@unchecked Sendable` class, which the compiler accepts.)
import Foundation

func runImportantWorkOnce(_ work: @Sendable () -> Void) {
    var didExecute = false
    DispatchQueue.concurrentPerform(iterations: 10) { _ in
        guard !didExecute else { return }
        work()
        didExecute = true
    }
}

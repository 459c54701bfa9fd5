// Compiler probe · lesson 2 · serial-queue
// The article's fix: every check-and-set is a work item on one serial queue. Correct, yet rejected
// by Swift 6 just like the bug: the flag is still a captured `var`, and the compiler cannot see
// that the serial queue runs those closures one at a time.
import Foundation

func runImportantWorkOnce(_ work: @escaping @Sendable () -> Void) {
    let queue = DispatchQueue(label: "once")
    var didExecute = false
    DispatchQueue.concurrentPerform(iterations: 10) { _ in
        queue.async {
            guard !didExecute else { return }
            work()
            didExecute = true
        }
    }
    queue.sync {}
}

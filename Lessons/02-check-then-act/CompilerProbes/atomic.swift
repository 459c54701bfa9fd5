// Compiler probe · lesson 2 · atomic
// One compare-and-exchange of an Atomic<Bool> decides who runs the work. The type is Sendable
// without any unchecked claim, and the compiler accepts it.
import Foundation
import Synchronization

final class AtomicOnce: Sendable {
    private let didExecute = Atomic<Bool>(false)

    func run(_ work: () -> Void) {
        let (exchanged, _) = didExecute.compareExchange(
            expected: false,
            desired: true,
            ordering: .acquiringAndReleasing
        )
        guard exchanged else { return }
        work()
    }
}

func runImportantWorkOnce(_ work: @Sendable () -> Void) {
    let once = AtomicOnce()
    DispatchQueue.concurrentPerform(iterations: 10) { _ in
        once.run(work)
    }
}

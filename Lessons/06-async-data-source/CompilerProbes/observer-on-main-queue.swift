// Compiler probe · lesson 6 · observer-on-main-queue
// The article's observerOnMainQueue(with:): the main-queue observer's public `observers` appended,
// and its `state` read, on the caller's thread while the main queue replaces the state and iterates
// the list. Rejected by Swift 6 as written, like the fix (specific-queue-observer): the compiler
// cannot see which queue the vars belong to, so it cannot see that this caller is on the wrong one.
import Foundation

protocol DataSourceObserver: AnyObject {
    func dataSourceChanged(_ newState: State)
}

final class SpecificQueueStateObserver: DataSourceObserver {
    private let queue: DispatchQueue
    private(set) var state = State()
    /// Observers told on `queue`; nothing but this comment says who may touch the list.
    var observers: [any DataSourceObserver] = []

    init(queue: DispatchQueue) { self.queue = queue }

    func dataSourceChanged(_ newState: State) {
        queue.async(flags: .barrier) {
            self.state = newState
            for observer in self.observers { observer.dataSourceChanged(newState) }
        }
    }
}

final class DataSource {
    let mainQueueObserver = SpecificQueueStateObserver(queue: .main)

    func observerOnMainQueue(with observer: any DataSourceObserver) {
        mainQueueObserver.observers.append(observer)
        observer.dataSourceChanged(mainQueueObserver.state)
    }
}

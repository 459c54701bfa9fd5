import AsyncDataSource
import Foundation
import RaceLab
import Synchronization

/// A race-window hook that runs `action` the first time the thread it is bound on reaches the window
/// named `name`: the way these tests force the interleaving that breaks (or must not break) a reader.
///
/// Every test that uses one also checks `fired`, so that a window renamed or moved makes the test
/// fail instead of quietly passing without the interleaving.
final class AtWindow: RaceWindowHook {
    private let name: String
    private let action: @Sendable () -> Void
    private let didFire = Atomic<Bool>(false)

    init(_ name: String, do action: @escaping @Sendable () -> Void) {
        self.name = name
        self.action = action
    }

    var fired: Bool { didFire.load(ordering: .acquiring) }

    func windowReached(_ reached: StaticString) {
        guard reached.description == name else { return }
        guard !didFire.exchange(true, ordering: .acquiringAndReleasing) else { return }
        action()
    }
}

/// Runs `body` on a thread of its own, outside Swift's cooperative pool, and returns its result.
///
/// `StressRunner.run` blocks its thread and then needs the pool for the trial's check; two of them
/// blocking both pool threads of a 2-core machine would wait for each other forever.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// The inconsistency kinds in `found`, for compact expectations.
func kinds(_ found: [Inconsistency]) -> [Inconsistency.Kind] {
    found.map(\.kind)
}

extension StateDataSource {
    /// The current state, after every update enqueued before the call.
    func settledState() -> State {
        let box = Box<State>()
        let done = DispatchSemaphore(value: 0)
        read { state in
            box.value = state
            done.signal()
        }
        done.wait()
        return box.value!
    }
}

/// A value handed from one thread to another behind a lock.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

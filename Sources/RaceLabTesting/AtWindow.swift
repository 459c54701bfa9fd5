import Foundation
import RaceLab

/// A race-window hook that runs an action the first time a thread it is bound on reaches the window
/// named `name`: how a test forces the interleaving that breaks a lesson, instead of hoping for it.
///
/// ```swift
/// let hook = AtWindow("set contents") { otherStoreRunsToCompletion() }
/// Race.$hook.withValue(hook) { storage.store(data, forIdentifier: "a") }
/// #expect(hook.fired)   // a renamed or moved window fails the test instead of passing it vacuously
/// ```
///
/// The action runs on the thread that reached the window, inside the window; the thread goes on
/// when the action returns. Later arrivals, and windows with other names, pass straight through.
public final class AtWindow: RaceWindowHook, @unchecked Sendable {
    private let name: String
    private let action: @Sendable () -> Void
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var didFire = false

    /// A hook that runs `action` at the first arrival at the window `name`.
    /// - Parameters:
    ///   - name: the window's name, as given to `Race.window`.
    ///   - action: what to run there, on the arriving thread.
    public init(_ name: String, do action: @escaping @Sendable () -> Void) {
        self.name = name
        self.action = action
    }

    /// Whether the action ran: the window was reached under this hook.
    public var fired: Bool {
        lock.withLock { didFire }
    }

    /// Runs the action if this is the first arrival at the window; any other window passes through.
    public func windowReached(_ reached: StaticString) {
        guard reached.description == name else { return }
        let first = lock.withLock { () -> Bool in
            defer { didFire = true }
            return !didFire
        }
        if first { action() }
    }
}

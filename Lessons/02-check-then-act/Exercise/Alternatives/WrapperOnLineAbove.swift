// Another fix for exercise 2 that passes (CI checks that it PASSES): double-checked locking done
// right: the fast-path flag is a property wrapper (its attribute on the line above) that takes its
// own lock on every get and set, so the unlocked-looking read is a locked one.
// lock on every get and set, so the unlocked-looking read is a locked read.
import Foundation
import RaceLab

@propertyWrapper
final class Synchronized<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(wrappedValue: Value) { value = wrappedValue }

    var wrappedValue: Value {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

final class Once: @unchecked Sendable {
    private let lock = NSLock()
    @Synchronized
    private var didExecute = false

    init() {}

    @inline(never)
    func run(_ execute: () -> Void) {
        if didExecute { return }
        lock.lock()
        defer { lock.unlock() }
        guard !didExecute else { return }
        execute()
        didExecute = true
    }
}

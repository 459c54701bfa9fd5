import Synchronization

/// Marks in lesson code where a race window is open.
///
/// A race window is the stretch between two steps that must not be separated, such as the getter
/// and the setter of `contents[id] = data`. Lesson code calls `Race.window("set contents")` right
/// inside such a window. The call does nothing unless a hook is bound for the current thread or
/// task (or set for the whole process with `withFallbackHook`): the stress runner binds a noise
/// hook there (random yields, spins and sleeps, following a seed) to make the window wider, and a
/// controlled scheduler can bind one that switches threads.
///
/// A mark only ever *widens* a window the code already has. Deleting every mark from a lesson must
/// leave the bug in place; it would only show less often.
public enum Race {
    /// The hook the current thread or task reaches at each window. Bound per iteration by the runner.
    ///
    /// A task-local: bound on a thread (outside any task) it is seen by that thread, and an
    /// unstructured `Task` created there inherits it, so actor code reached from an iteration sees
    /// the same hook.
    @TaskLocal public static var hook: (any RaceWindowHook)?

    /// Marks an open race window named `name` (shown in reports and schedules, e.g. `"set contents"`).
    ///
    /// - Parameters:
    ///   - name: the window's name, as reports and schedules show it.
    ///   - object: for the schedule explorer's partial-order reduction, the one object whose
    ///   shared state the code from here to this thread's next scheduling point reads or changes
    ///   (anything else it touches must be its own, immutable, or behind a `RaceLock`/`RaceQueue`).
    ///   Windows on different objects commute, so the explorer need not try both orders (a window
    ///   that only reads its object says so with `window(_:reading:)`). Nil, the
    ///   default and the safe choice, means "possibly anything": the window is ordered against
    ///   every other step. A wrong object can hide a failing schedule; a missing one never does.
    @inlinable
    public static func window(_ name: StaticString, on object: AnyObject? = nil) {
        if let hook = hook ?? fallbackHook { hook.windowReached(name, on: object) }
    }

    /// Runs `body` with `hook` reached at every window on a thread or task that has no hook of its
    /// own, on any thread of the process: a test's gate that must also see the marks a call reaches
    /// in work it hands to another thread (a `DispatchQueue.async` block), where `hook` is not bound.
    ///
    /// Only race windows reach it (not steps). Calls do not nest: the hook is set for the duration
    /// of `body` and cleared after it, and no other fallback may be set meanwhile.
    ///
    /// - Parameters:
    ///   - hook: the hook for every window reached without one, while `body` runs.
    ///   - body: the code to run; `withFallbackHook` returns what it returns.
    /// - Returns: what `body` returns.
    public static func withFallbackHook<R>(_ hook: any RaceWindowHook, _ body: () throws -> R) rethrows -> R {
        FallbackHook.slot.withLock { slot in
            precondition(slot == nil, "Race.withFallbackHook does not nest")
            slot = hook
        }
        FallbackHook.set.store(true, ordering: .releasing)
        defer {
            FallbackHook.set.store(false, ordering: .releasing)
            FallbackHook.slot.withLock { $0 = nil }
        }
        return try body()
    }

    /// The hook set by `withFallbackHook`, if any. Without one set, an atomic load and no lock, so
    /// that a window with no hook (a queue's block under the stress runner) stays cheap.
    @usableFromInline
    static var fallbackHook: (any RaceWindowHook)? {
        FallbackHook.set.load(ordering: .acquiring) ? FallbackHook.slot.withLock { $0 } : nil
    }

    /// Marks a synchronization operation the code is about to perform (`queue.sync`, an async
    /// barrier, taking a lock) as a scheduling point for the schedule explorer.
    ///
    /// Unlike `window`, a step is no race window: noise hooks and test gates ignore it (the default
    /// `stepReached` does nothing), so adding a step never changes what `racelab run` measures. The
    /// explorer needs it because a thread may only be switched out where the code does something
    /// another thread can observe; a queue's work item is such a place even when no window is open.
    ///
    /// - Parameters:
    ///   - name: the operation's name, as schedules show it (`sync storage`).
    ///   - object: as for `window`: what the code from here to the next point touches.
    @inlinable
    public static func step(_ name: StaticString, on object: AnyObject? = nil) {
        if let hook { hook.stepReached(name, on: object) }
    }

    /// `window(_:on:)` for a window whose code, up to this thread's next scheduling point, only
    /// *reads* `object`'s shared state (and touches nothing else shared outside the primitives).
    ///
    /// Two reads of one object commute, so the explorer need not try both orders of two such
    /// windows; a read is still ordered against every `on: object` window (which may write). A
    /// window that writes what it declares it only reads can hide a failing schedule: when in
    /// doubt, use `on:`.
    @inlinable
    public static func window(_ name: StaticString, reading object: AnyObject) {
        if let hook = hook ?? fallbackHook { hook.windowReached(name, reading: object) }
    }

    /// `step(_:on:)` for a step whose code only reads `object` (see `window(_:reading:)`).
    @inlinable
    public static func step(_ name: StaticString, reading object: AnyObject) {
        if let hook { hook.stepReached(name, reading: object) }
    }

    /// Says that the code running has just seen the failure its exploration's invariant reports (a
    /// reader got a state no writer published), in one line: `the UI saw mixed state: …`.
    ///
    /// The schedule explorer keeps the first such line of an execution with the step it was said
    /// in (`ExecutionResult.failureSeen`), and a failing schedule's timeline marks that step: where
    /// the failure became visible, which an invariant checked after every thread finished cannot
    /// tell. It decides nothing: the verdict is the invariant's. Said outside a step (a thread's
    /// set-up before its first scheduling point, the invariant itself), or outside the explorer
    /// (the stress runner, a plain test), it is ignored, and `what` is not evaluated.
    @inlinable
    public static func failureSeen(_ what: @autoclosure () -> String) {
        if let hook { hook.failureSeen(what) }
    }
}

/// Something that acts when lesson code reaches a race window: noise, a scheduler, a test's gate.
public protocol RaceWindowHook: Sendable {
    /// Called on the thread that reached the window, before it goes on.
    func windowReached(_ name: StaticString)

    /// Called on the thread about to perform the synchronization operation `name` (see `Race.step`).
    func stepReached(_ name: StaticString)

    /// `windowReached` with the object the window touches (`Race.window(_:on:)`).
    func windowReached(_ name: StaticString, on object: AnyObject?)

    /// `stepReached` with the object the step touches (`Race.step(_:on:)`).
    func stepReached(_ name: StaticString, on object: AnyObject?)

    /// `windowReached` with the object the window only reads (`Race.window(_:reading:)`).
    func windowReached(_ name: StaticString, reading object: AnyObject)

    /// `stepReached` with the object the step only reads (`Race.step(_:reading:)`).
    func stepReached(_ name: StaticString, reading object: AnyObject)

    /// Called on the thread whose code saw the failure that `what` describes (`Race.failureSeen(_:)`);
    /// a hook that keeps nothing does not call it.
    func failureSeen(_ what: () -> String)
}

extension RaceWindowHook {
    /// Noise and test gates act at race windows only.
    public func stepReached(_ name: StaticString) {}

    /// Only the explorer cares about the object: the others forward to `windowReached(_:)`.
    public func windowReached(_ name: StaticString, on object: AnyObject?) {
        windowReached(name)
    }

    /// Only the explorer cares about the object: the others forward to `stepReached(_:)`.
    public func stepReached(_ name: StaticString, on object: AnyObject?) {
        stepReached(name)
    }

    /// Only the explorer cares how the object is touched: the others forward to `windowReached(_:on:)`.
    public func windowReached(_ name: StaticString, reading object: AnyObject) {
        windowReached(name, on: object)
    }

    /// Only the explorer cares how the object is touched: the others forward to `stepReached(_:on:)`.
    public func stepReached(_ name: StaticString, reading object: AnyObject) {
        stepReached(name, on: object)
    }

    /// Only the explorer records where a failure was seen.
    public func failureSeen(_ what: () -> String) {}
}

/// The process-wide hook of `Race.withFallbackHook`.
enum FallbackHook {
    static let slot = Mutex<(any RaceWindowHook)?>(nil)
    /// Whether `slot` holds a hook: read first, so that a window with no hook takes no lock.
    static let set = Atomic<Bool>(false)
}

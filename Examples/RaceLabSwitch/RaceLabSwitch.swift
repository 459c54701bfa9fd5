// RaceLabSwitch.swift: copy this file, unchanged, into a target whose code RaceLab's explorer should
// see. Compiled with the condition RACELAB (a package trait of that name, or `-D RACELAB`), the
// target's `DispatchQueue`, `NSLock`, `NSRecursiveLock`, `Mutex`, `DispatchSemaphore`,
// `DispatchGroup` (and `OSAllocatedUnfairLock` on Darwin) are RaceLab's primitives, with the same
// initialisers and calls, and the explorer schedules every `sync`, barrier, lock and wait. Compiled
// without it, the file is empty and the target is exactly what it was.
//
// A type declared in a module shadows one it imports, so these aliases win over Foundation's,
// Dispatch's and Synchronization's names inside this target only: other modules, and the target's
// production builds, see the real types. What is covered: `DispatchQueue(label:qos:attributes:)`,
// `sync`, `sync(flags:)`, `async`, `async(flags: .barrier)`, `async(group:)`; `NSLock()`,
// `NSRecursiveLock()`, `lock()`, `unlock()`, `withLock`; `Mutex(_:)`, `withLock`,
// `withLockIfAvailable`; `DispatchSemaphore(value:)`, `wait()`, `wait(timeout:)`, `signal()`;
// `DispatchGroup()`, `enter()`, `leave()`, `wait()`, `wait(timeout:)`, `notify(queue:execute:)`;
// `OSAllocatedUnfairLock()`, `OSAllocatedUnfairLock(initialState:)`, `withLock`, `lock()`,
// `unlock()`. Not covered (the code will not compile under the condition, which says so): queues
// RaceLab does not model (`DispatchQueue.main`, `.global()`, `asyncAfter`), `DispatchWorkItem`,
// a `Mutex` of a noncopyable value; mark those with `Race.window`, or keep their state in
// `@RaceShared`.
#if RACELAB
import RaceLab

typealias DispatchQueue = RaceQueue
typealias NSLock = RaceLock
typealias NSRecursiveLock = RaceRecursiveLock
typealias Mutex<Value> = RaceMutex<Value>
typealias DispatchSemaphore = RaceSemaphore
typealias DispatchGroup = RaceGroup
#if canImport(Darwin)
typealias OSAllocatedUnfairLock<State> = RaceMutex<State>
#endif
#endif

import Foundation
import Testing

@testable import RaceLab

/// The recursive lock's and the kernel file locks' models, rule by rule (as `ExplorerPrimitiveTests`
/// checks the others), then each primitive under the explorer.
@Suite("Recursive lock and file locks under the explorer")
struct LockPrimitiveModelTests {
    final class Object {}

    // MARK: - RaceRecursiveLock

    @Test("a recursive lock: its holder takes it again; another thread waits until every lock is undone")
    func recursiveLockModel() {
        let state = ExecutionState(threads: 2)
        let lock = Object()
        let acquire = RecursiveLockAcquire(lock: ObjectIdentifier(lock), name: "lock tree")
        acquire.chosen(by: 0, in: state)
        let model = state.model(of: ObjectIdentifier(lock), RecursiveLockModel.init)
        #expect(acquire.canProceed(0, in: state), "the holder may take it again")
        #expect(model.reenter(by: 0))
        #expect(!model.reenter(by: 1))
        #expect(!acquire.canProceed(1, in: state))
        #expect(acquire.holder(in: state) == 0)
        model.release(by: 0, in: state)
        #expect(!acquire.canProceed(1, in: state), "locked twice, unlocked once: still held")
        model.release(by: 1, in: state)
        #expect(model.holder == 0, "only the holder releases it")
        model.release(by: 0, in: state)
        #expect(acquire.canProceed(1, in: state))
    }

    @Test("while a deadlocked execution is drained, any unlock frees a recursive lock")
    func recursiveLockDrained() {
        let state = ExecutionState(threads: 2)
        let lock = Object()
        RecursiveLockAcquire(lock: ObjectIdentifier(lock), name: "lock tree").chosen(by: 0, in: state)
        let model = state.model(of: ObjectIdentifier(lock), RecursiveLockModel.init)
        _ = model.reenter(by: 0)
        state.freeRunning = true
        model.release(by: 1, in: state)
        #expect(model.holder == nil)
    }

    /// Each thread increments a counter inside a lock taken twice, nested, by `lock`/`unlock`.
    static func nestedIncrement(
        lock: @escaping @Sendable () -> Void,
        unlock: @escaping @Sendable () -> Void
    )
        -> Exploration
    {
        final class Counter: @unchecked Sendable { var value = 0 }
        return Exploration(
            summary: "each thread increments a counter under a lock taken twice",
            makeState: { Counter() },
            thread: { counter, _ in
                lock()
                lock()
                let value = counter.value
                Race.window("write counter")
                counter.value = value + 1
                unlock()
                unlock()
            },
            invariant: { counter, threads in counter.value == threads ? nil : "counter is \(counter.value)" }
        )
    }

    @Test("RaceRecursiveLock taken twice: no deadlock, no lost increment; RaceLock taken twice deadlocks")
    func recursiveLockExplored() async throws {
        let recursive = RaceRecursiveLock("counter")
        let clean = try await Explorer.explore(Self.nestedIncrement(lock: recursive.lock, unlock: recursive.unlock))
        #expect(clean.exhaustive)
        #expect(clean.failingSchedules == 0)
        #expect(clean.schedules > 1)
        let plain = RaceLock("counter")
        let stuck = try await Explorer.explore(Self.nestedIncrement(lock: plain.lock, unlock: plain.unlock))
        // Thread 0 waits for the lock it holds itself; thread 1 for the same lock.
        #expect(
            stuck.failure?.outcome
                == .deadlock([
                    ThreadPosition(thread: 0, waitingFor: "lock counter", heldBy: 0),
                    ThreadPosition(thread: 1, waitingFor: "lock counter", heldBy: 0),
                ])
        )
    }

    // MARK: - File locks

    /// A `fcntl` record lock on `file`, owned by the process.
    static func recordLock(on file: Object) -> FileLockRequest {
        FileLockRequest(file: ObjectIdentifier(file), owner: .process, shared: false, name: "fcntl lock")
    }

    /// A `flock` lock on `file`, owned by the open file description `description`.
    static func descriptionLock(on file: Object, by description: Object, shared: Bool) -> FileLockRequest {
        FileLockRequest(
            file: ObjectIdentifier(file),
            owner: .description(ObjectIdentifier(description)),
            shared: shared,
            name: "flock"
        )
    }

    @Test("POSIX record locks belong to the process: two threads never exclude each other")
    func recordLocksNeverExcludeThreads() {
        let state = ExecutionState(threads: 2)
        let file = Object()
        let request = Self.recordLock(on: file)
        request.chosen(by: 0, in: state)
        #expect(request.canProceed(1, in: state), "the process already holds it: granted")
    }

    @Test("description locks exclude other descriptions: exclusive against all, shared against exclusive")
    func descriptionLocksExclude() {
        let state = ExecutionState(threads: 3)
        let (file, first, second, third) = (Object(), Object(), Object(), Object())
        func request(_ description: Object, shared: Bool) -> FileLockRequest {
            Self.descriptionLock(on: file, by: description, shared: shared)
        }
        request(first, shared: true).chosen(by: 0, in: state)
        #expect(request(second, shared: true).canProceed(1, in: state), "two shared locks coexist")
        #expect(!request(second, shared: false).canProceed(1, in: state))
        #expect(request(second, shared: false).holder(in: state) == 0)
        #expect(request(first, shared: false).canProceed(0, in: state), "its own owner converts it")
        request(second, shared: true).chosen(by: 1, in: state)
        let model = state.model(of: ObjectIdentifier(file), FileLockModel.init)
        model.release(.description(ObjectIdentifier(first)))
        #expect(!request(third, shared: false).canProceed(2, in: state), "the second description still holds it")
        model.close(ObjectIdentifier(second))
        #expect(request(third, shared: false).canProceed(2, in: state))
    }

    @Test("closing any descriptor drops the process's record locks, but not another description's lock")
    func closingDropsRecordLocks() {
        let state = ExecutionState(threads: 2)
        let (file, holder, other, unrelated) = (Object(), Object(), Object(), Object())
        Self.recordLock(on: file).chosen(by: 0, in: state)
        Self.descriptionLock(on: file, by: holder, shared: true).chosen(by: 1, in: state)
        let model = state.model(of: ObjectIdentifier(file), FileLockModel.init)
        model.close(ObjectIdentifier(unrelated))
        #expect(model.holds[.process] == nil, "some other descriptor closed: the record lock is gone")
        #expect(model.holds[.description(ObjectIdentifier(holder))] != nil)
        let exclusive = Self.descriptionLock(on: file, by: other, shared: false)
        #expect(!exclusive.canProceed(0, in: state))
    }

    @Test("record and description locks on one file conflict (one set of locks, two kinds of owner)")
    func recordAndDescriptionConflict() {
        let state = ExecutionState(threads: 2)
        let (file, description) = (Object(), Object())
        Self.recordLock(on: file).chosen(by: 0, in: state)
        let request = Self.descriptionLock(on: file, by: description, shared: false)
        #expect(!request.canProceed(1, in: state))
    }

    /// Each thread increments a counter inside `lock` on its own `RaceLockFile` of one lock file.
    static func fileLockedIncrement(
        description: Bool
    ) -> Exploration {
        final class Counter: @unchecked Sendable {
            var value = 0
            let folder: URL
            init() throws { folder = try ScratchSpace.makeFolder(label: "lock-file-model") }
        }
        return Exploration(
            summary: "each thread increments a counter under a file lock of its own open()",
            makeState: { try Counter() },
            thread: { counter, _ in
                let file = try RaceLockFile(path: counter.folder.appendingPathComponent("counter.lock").path)
                defer { file.close() }
                if description { try file.lockDescription() } else { try file.lockRecord() }
                let value = counter.value
                Race.window("write counter")
                counter.value = value + 1
                if description { try file.unlockDescription() } else { try file.unlockRecord() }
            },
            invariant: { counter, threads in counter.value == threads ? nil : "counter is \(counter.value)" },
            tearDown: { counter in ScratchSpace.remove(counter.folder) }
        )
    }

    @Test("RaceLockFile explored: description locks keep every increment, record locks lose one")
    func fileLocksExplored() async throws {
        let description = try await Explorer.explore(Self.fileLockedIncrement(description: true))
        #expect(description.abandoned == nil)
        #expect(description.exhaustive)
        #expect(description.failingSchedules == 0)
        let record = try await Explorer.explore(Self.fileLockedIncrement(description: false))
        #expect(record.abandoned == nil)
        #expect(record.failure?.outcome == .invariantBroken("counter is 1"))
        let granted = record.failure?.steps.filter { $0.operation == "fcntl lock counter.lock" }.map(\.thread)
        #expect(granted == [0, 1] || granted == [1, 0])
    }

    @Test("two description locks taken in opposite orders: a deadlock, with who holds what")
    func fileLockDeadlock() async throws {
        final class Folder: @unchecked Sendable {
            let url: URL
            init() throws { url = try ScratchSpace.makeFolder(label: "lock-file-deadlock") }
        }
        let exploration = Exploration(
            summary: "two files locked in opposite orders",
            makeState: { try Folder() },
            thread: { folder, index in
                let names = index == 0 ? ["a", "b"] : ["b", "a"]
                let files = try names.map { try RaceLockFile(path: folder.url.appendingPathComponent($0).path) }
                for file in files { try file.lockDescription() }
                for file in files { file.close() }
            },
            invariant: { _, _ in nil },
            tearDown: { folder in ScratchSpace.remove(folder.url) }
        )
        let report = try await Explorer.explore(exploration)
        #expect(
            report.failure?.outcome
                == .deadlock([
                    ThreadPosition(thread: 0, waitingFor: "flock b", heldBy: 1),
                    ThreadPosition(thread: 1, waitingFor: "flock a", heldBy: 0),
                ])
        )
    }
}

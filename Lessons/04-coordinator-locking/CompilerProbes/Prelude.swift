// Compiler probes · lesson 4 · prelude
// What the probes of this lesson share, type-checked together with each of them (see
// CompilerProbe.preludeName): the article's ObjectStorage over a coordinator, the threads that
// increment one file through it, a record lock taken with fcntl, and the claim table and coordinator
// that stand in for NSFileCoordinator. Each probe holds only the pattern it measures, its
// `Coordinator` or the way its storages share one: the compiler sees the same storage around every one.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What an ObjectStorage is given to keep its accesses apart from other instances'.
protocol FileAccessCoordinator: Sendable {
    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws
}

/// The article's ObjectStorage: one Codable object in one JSON file; several instances on one file.
struct ObjectStorage<Object: Codable> {
    let url: URL
    let coordinator: any FileAccessCoordinator

    func mutatingObject(defaultValue: Object, _ mutate: (inout Object) -> Void) throws {
        try coordinator.coordinateWriting(at: url) { url in
            var object = (try? JSONDecoder().decode(Object.self, from: Data(contentsOf: url))) ?? defaultValue
            mutate(&object)
            try JSONEncoder().encode(object).write(to: url, options: .atomic)
        }
    }
}

/// 1,000 increments of the number in `file`, from concurrent threads, each through its own storage.
func incrementConcurrently(file: URL, coordinator: any FileAccessCoordinator) {
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        let storage = ObjectStorage<Int>(url: file, coordinator: coordinator)
        try? storage.mutatingObject(defaultValue: 0) { $0 += 1 }
    }
}

/// Stands in for NSFileCoordinator's claims: a claim waits only for claims of *other* owners.
final class ClaimTable: @unchecked Sendable {
    static let shared = ClaimTable()
    private let condition = NSCondition()
    private var holders: [URL: (owner: UUID, count: Int)] = [:]

    func acquire(_ url: URL, owner: UUID) {
        condition.lock()
        defer { condition.unlock() }
        while let holder = holders[url], holder.owner != owner { condition.wait() }
        holders[url] = (owner, (holders[url]?.count ?? 0) + 1)
    }

    func release(_ url: URL) {
        condition.lock()
        defer { condition.unlock() }
        if let holder = holders[url] { holders[url] = holder.count > 1 ? (holder.owner, holder.count - 1) : nil }
        condition.broadcast()
    }
}

/// Like NSFileCoordinator(filePresenter:): claims are made on behalf of one owner (the presenter).
struct OwnerScopedCoordinator: FileAccessCoordinator {
    let owner: UUID

    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        ClaimTable.shared.acquire(url, owner: owner)
        defer { ClaimTable.shared.release(url) }
        try body(url)
    }
}

/// Runs `body` holding a write lock on `<path>.lock`, taken with the fcntl command `wait` and
/// released with `unlock`: the commands decide who owns the lock, and so whom it excludes.
func withWriteLock(onFileAt path: String, wait: Int32, unlock: Int32, _ body: () throws -> Void) rethrows {
    let descriptor = open(path + ".lock", O_RDWR | O_CREAT, 0o644)
    defer { close(descriptor) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    _ = fcntl(descriptor, wait, &lock)
    defer {
        lock.l_type = Int16(F_UNLCK)
        _ = fcntl(descriptor, unlock, &lock)
    }
    try body()
}

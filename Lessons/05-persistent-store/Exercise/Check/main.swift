// The harness for exercise 5 (do not edit): compiled next to the participant's DocumentStore.swift.
import ExerciseSupport
import Foundation
import RaceLab

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("5 · DocumentStore: no torn reads, every store lands")

/// A payload that proves whether it is whole: a header line `version:length:checksum`, then a body
/// of 16 KiB (several write chunks) that depends on the version.
enum Payload {
    static func make(version: Int) -> Data {
        let body = Data((0..<16_384).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ version &* 7) })
        return Data("\(version):\(body.count):\(checksum(body))\n".utf8) + body
    }
    static func checksum(_ data: Data) -> UInt64 {
        data.reduce(14_695_981_039_346_656_037 as UInt64) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }
    /// The version of a whole payload, or nil for a torn one (truncated, mixed, empty).
    static func version(of data: Data) -> Int? {
        guard let newline = data.firstIndex(of: 10),
            let header = String(data: data[data.startIndex..<newline], encoding: .utf8)
        else { return nil }
        let fields = header.split(separator: ":")
        guard fields.count == 3, let version = Int(fields[0]), let length = Int(fields[1]),
            let sum = UInt64(fields[2])
        else { return nil }
        let body = data[(newline + 1)...]
        return body.count == length && checksum(Data(body)) == sum ? version : nil
    }
}

func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("racelab-exercise-5-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

// Functional: a store really writes the file (a store that keeps data in memory, or drops it,
// must not pass), a load returns what was stored, a second store replaces the first.
do {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore(folder: folder)
    check.require((try? store.load("missing")) == .some(nil), "a document never stored loads as nil")
    let first = Payload.make(version: 1)
    let second = Payload.make(version: 2)
    try store.store(first, as: "report")
    check.require((try? store.load("report")) == first, "load returns what was stored")
    check.require(
        (try? Data(contentsOf: folder.appendingPathComponent("report"))) == first,
        "the document is the file folder/name on disk"
    )
    try store.store(second, as: "report")
    check.require((try? store.load("report")) == second, "a second store replaces the first")
    check.require(
        (try? DocumentStore(folder: folder).load("report")) == second,
        "another store on the same folder reads it (it is on disk, not in memory)"
    )
} catch {
    check.require(false, "the functional checks run without errors", evidence: "\(error)")
}

// Ordered: a store waits for work already on the store's queue (or lock), as a barrier does. The
// check puts a plain work item on the store's own queue (found by reflection: it is private) and
// holds it there, the way an earlier store of the same document would still be writing; then it
// makes a store and gives it `patience` to return. A store that returns while the item is held runs
// beside earlier work: it breaks the lesson's rule (a store runs alone), the rule that keeps an
// asynchronous store's order. For this synchronous `store`, two overlapping calls have no order to
// keep, so this checks the rule, not a lost order, and says so. A store that waits is
// never failed: the wait only decides how slow a store may be and still be caught (a second, for a
// 16 KiB write that takes milliseconds).
enum Ordering {
    static let patience: DispatchTimeInterval = .seconds(1)

    /// What orders the store's work: its dispatch queues and locks, as stored properties.
    static func guards(of store: DocumentStore) -> (queues: [DispatchQueue], locks: [any NSLocking]) {
        let values = Mirror(reflecting: store).children.map(\.value)
        return (values.compactMap { $0 as? DispatchQueue }, values.compactMap { $0 as? any NSLocking })
    }

    /// Whether a store returned while `hold` kept earlier work running on the store's queue or lock.
    /// `hold` starts holding, then calls its argument; it stops holding when that returns. A store
    /// that threw is rethrown: an error says nothing about order, so it is never counted as the bug.
    static func storeReturnsWhileHeld(_ store: DocumentStore, hold: (() -> Bool) -> Bool) throws -> Bool {
        let returned = DispatchSemaphore(value: 0)
        let failure = StoreFailure()
        let beside = hold {
            Thread.detachNewThread {
                do {
                    try store.store(Payload.make(version: 2), as: "ordered")
                } catch {
                    failure.record(error)
                }
                returned.signal()
            }
            return returned.wait(timeout: .now() + patience) == .success
        }
        if !beside { returned.wait() }  // it waited for the held work: let it finish
        if let error = failure.error { throw error }
        return beside
    }

    /// The error a store made on another thread threw, if any.
    final class StoreFailure: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: (any Error)?

        func record(_ error: any Error) { lock.withLock { recorded = error } }
        var error: (any Error)? { lock.withLock { recorded } }
    }
}
do {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = DocumentStore(folder: folder)
    try store.store(Payload.make(version: 1), as: "ordered")
    let (queues, locks) = Ordering.guards(of: store)
    var beside = false
    for queue in queues where !beside {
        beside = try Ordering.storeReturnsWhileHeld(store) { makeStore in
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            queue.async {
                started.signal()
                release.wait()
            }
            started.wait()
            defer { release.signal() }
            return makeStore()
        }
    }
    for lock in locks where !beside {
        beside = try Ordering.storeReturnsWhileHeld(store) { makeStore in
            lock.lock()
            defer { lock.unlock() }
            return makeStore()
        }
    }
    if queues.isEmpty && locks.isEmpty {
        // Nothing to hold, so nothing keeps two stores apart either: the rule names the store's queue.
        check.require(
            false,
            "a store runs alone: it waits for earlier work on the store's queue (the lesson's barrier rule)",
            kind: "unordered-stores",
            evidence: "DocumentStore has no DispatchQueue or NSLock property, so nothing keeps two stores"
                + " apart: keep the store's queue and make each store run alone on it"
        )
    } else {
        check.require(
            !beside,
            "a store runs alone: it waits for earlier work on the store's queue (the lesson's barrier rule)",
            kind: "unordered-stores",
            evidence: "a store returned while earlier work on its queue still ran: stores are not one at a"
                + " time, which is what orders them once they are submitted asynchronously"
        )
    }
} catch {
    check.require(false, "the ordering check runs without errors", evidence: "\(error)")
}

// Concurrent: even iterations store (a new version of one of two shared documents, and a document
// of their own), odd ones read the shared documents, through `load` and straight from the file (a few
// times) as another process would. Every read must be whole; afterwards every own document must be there, whole.
struct Trial: Sendable {
    let folder: URL
    let store: DocumentStore
}
let writersPerTrial = 100
let variant = ExerciseCheck.variant(
    of: "DocumentStore",
    makeState: {
        let folder = try makeFolder()
        return Trial(folder: folder, store: DocumentStore(folder: folder))
    },
    operation: { trial, iteration in
        let shared = "shared-\((iteration.index / 2) % 2)"
        if iteration.index % 2 == 0 {
            try trial.store.store(Payload.make(version: iteration.index), as: shared)
            try trial.store.store(Payload.make(version: iteration.index), as: "own-\(iteration.index)")
        } else {
            if let data = try trial.store.load(shared), Payload.version(of: data) == nil {
                iteration.recordInconsistency("load(\"\(shared)\") returned a torn payload (\(data.count) bytes)")
            }
            for _ in 0..<4 {  // outside readers are cheap and the window is narrow: look a few times
                if let data = try? Data(contentsOf: trial.folder.appendingPathComponent(shared)),
                    Payload.version(of: data) == nil
                {
                    iteration.recordInconsistency(
                        "a reader outside the store found \(shared) torn (\(data.count) bytes)"
                    )
                }
            }
        }
    },
    check: { trial, info in
        let writers = (info.iterations + 1) / 2
        let landed = (0..<writers).filter { writer in
            let data = try? Data(contentsOf: trial.folder.appendingPathComponent("own-\(writer * 2)"))
            return data.flatMap(Payload.version(of:)) == writer * 2
        }.count
        var observation = Observation.kept(landed, of: writers, unit: "stores")
        for shared in ["shared-0", "shared-1"] {
            let data = try? Data(contentsOf: trial.folder.appendingPathComponent(shared))
            if data.flatMap(Payload.version(of:)) == nil { observation.inconsistencies += 1 }
        }
        return observation
    },
    tearDown: { trial in try? FileManager.default.removeItem(at: trial.folder) }
)
check.stress(
    variant,
    workload: Workload(trials: 8, iterations: writersPerTrial * 2),
    requirement: "100 stores and 100 readers at once: no torn read, every store lands whole (every trial)"
)
check.finish()

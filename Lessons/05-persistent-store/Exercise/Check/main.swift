// The harness for exercise 5 (do not edit): compiled next to the participant's DocumentStore.swift.
import ExerciseSupport
import Foundation
import RaceLab

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it. `nonisolated(unsafe)`: it is made here,
// before the checking thread starts (see the end of the file), and only that thread uses it after.
nonisolated(unsafe) private let check = ExerciseCheck(
    "5 · DocumentStore: no torn reads, stores land whole and in order"
)

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

/// Stores `data` as `name` and waits for the completion: its error, or a timeout error when the
/// completion never came (a store that never reports back must not hang the check).
func storeAndWait(_ store: DocumentStore, _ data: Data, as name: String) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = Failure()
    store.store(data, as: name) { error in
        if let error { failure.record(error) }
        done.signal()
    }
    guard done.wait(timeout: .now() + 30) == .success else { throw CompletionMissing(name: name) }
    if let error = failure.error { throw error }
}

struct CompletionMissing: Error, CustomStringConvertible {
    let name: String
    var description: String { "the completion of a store of \(name) never ran (waited 30 s)" }
}

/// `error` in a few words: its message and the name of the file it names (for a move, the
/// destination), not the whole temporary path nor the raw `NSError` (its user info), so that a
/// FAIL line stays readable and wraps.
func describe(_ error: any Error) -> String {
    if let error = error as? CompletionMissing { return error.description }
    if let error = error as? POSIXError { return String(cString: strerror(error.code.rawValue)) }
    let error = error as NSError
    let path =
        ["NSDestinationFilePath", NSFilePathErrorKey, "NSSourceFilePathErrorKey"].lazy
        .compactMap { error.userInfo[$0] as? String }.first
        ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    let name = path.map { "\(URL(fileURLWithPath: $0).lastPathComponent): " } ?? ""
    return name + error.localizedDescription
}

/// A store's error as a trial reports it: in the words of `describe(_:)`.
struct StoreError: Error, CustomStringConvertible {
    let error: any Error
    var description: String { describe(error) }
}

/// An error a completion reported on another thread, if any.
final class Failure: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: (any Error)?

    func record(_ error: any Error) { lock.withLock { recorded = recorded ?? error } }
    var error: (any Error)? { lock.withLock { recorded } }
}

// Functional: a store really writes the file (a store that keeps data in memory, or drops it,
// must not pass) before its completion runs, a load returns what was stored, a second store
// replaces the first.
func functionalChecks() {
    do {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = DocumentStore(folder: folder)
        check.require((try? store.load("missing")) == .some(nil), "a document never stored loads as nil")
        let first = Payload.make(version: 1)
        let second = Payload.make(version: 2)
        // Stores run before the `require` that judges them: each names it first, for the checker's
        // message if its completion never comes.
        check.checking("after the completion, load returns what was stored")
        try storeAndWait(store, first, as: "report")
        check.require((try? store.load("report")) == first, "after the completion, load returns what was stored")
        check.require(
            (try? Data(contentsOf: folder.appendingPathComponent("report"))) == first,
            "the document is the file folder/name on disk"
        )
        check.checking("a second store replaces the first")
        try storeAndWait(store, second, as: "report")
        check.require((try? store.load("report")) == second, "a second store replaces the first")
        check.require(
            (try? DocumentStore(folder: folder).load("report")) == second,
            "another store on the same folder reads it (it is on disk, not in memory)"
        )
    } catch {
        check.require(false, "the functional checks run without errors", evidence: describe(error))
    }
}

/// Stores whose completion reported an error: how many of how many, and the first error. One per
/// trial (its went-back count is not evidence when a store failed: the failed store's document keeps
/// an older version) and one for the run (the FAIL line's count). The run's also counts writing
/// operations, each of which makes several stores and is one error however many of them fail.
final class StoreFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var stores = 0
    private var failed = 0
    private var writers = (failed: 0, all: 0)
    private var first: (any Error)?

    func record(_ error: (any Error)?) {
        lock.withLock {
            stores += 1
            if let error {
                failed += 1
                if first == nil { first = error }
            }
        }
    }
    /// Counts a writing operation whose completions all ran, and whether a store of it failed.
    func recordWriter(failed: Bool) {
        lock.withLock {
            writers.all += 1
            if failed { writers.failed += 1 }
        }
    }
    var counts: (failed: Int, stores: Int) { lock.withLock { (failed, stores) } }
    var writerCounts: (failed: Int, all: Int) { lock.withLock { writers } }
    var firstError: (any Error)? { lock.withLock { first } }
}
let storeFailures = StoreFailures()

/// Whether `error` says a file was not there (ENOENT), here or in an error it wraps: in a store
/// whose only missing file can be one it made itself, another store renamed or removed it.
func isMissingFile(_ error: any Error) -> Bool {
    if let posix = error as? POSIXError { return posix.code == .ENOENT }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) { return true }
    if error.domain == NSCocoaErrorDomain
        && [NSFileNoSuchFileError, NSFileReadNoSuchFileError].contains(error.code)
    {
        return true
    }
    return (error.userInfo[NSUnderlyingErrorKey] as? NSError).map(isMissingFile) ?? false
}

/// Documents that went back in one trial: a document's file (or a load made after a store's
/// completion) held an older version than the last store submitted (or completed).
final class WentBack: @unchecked Sendable {
    private let lock = NSLock()
    /// The highest version of each document whose store has completed (for a shared document,
    /// its writer's index + 1), 0 for one never stored.
    private var completed: [String: Int] = [:]
    /// How many stores have completed without an error: the watcher's pace (`Watcher`).
    private var stores = 0
    private(set) var documents = Set<String>()
    private(set) var example: String?

    func complete(_ name: String, version: Int) {
        lock.withLock {
            completed[name] = max(completed[name] ?? 0, version)
            stores += 1
        }
    }
    var storesCompleted: Int { lock.withLock { stores } }
    func completedVersion(of name: String) -> Int { lock.withLock { completed[name] ?? 0 } }
    func record(_ name: String, _ line: String) {
        lock.withLock {
            documents.insert(name)
            if example == nil { example = line }
        }
    }
    var count: Int { lock.withLock { documents.count } }
    var firstExample: String? { lock.withLock { example } }

    /// Called in the completion of the store of `version` of `name`, a writer's own document: its
    /// file must hold that version or a later one, never one older than a store that has already
    /// completed. Stores that ran out of order are caught here even when the last one landed last
    /// (v2 written, then v1, then v3 and v4 in order). A torn file is the torn reads' to count.
    func checkFile(_ name: String, in folder: URL, completing version: Int) {
        let completed = completedVersion(of: name)
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)),
            let held = Payload.version(of: data), held < completed
        else { return }
        // `completed` is this store's own version, or a later one whose store completed first. What
        // went wrong leads the line: a store that completed after a later one (and what it left on
        // disk), or one that completed with an older version already back on disk.
        let what =
            completed == version
            ? "the store of v\(version) completed with the older v\(held) on disk"
            : "the store of v\(version) completed after the store of v\(completed)"
                + (held == version ? " and left v\(held) on disk" : ", with v\(held) on disk")
        record(name, "\(name) (one writer's own document): \(what)")
    }
}

/// Each trial's went-back count and the run's first example, collected by the trials' checks.
final class WentBackTally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int] = []
    private var example: String?

    func add(_ count: Int, example line: String?) {
        lock.withLock {
            counts.append(count)
            if example == nil { example = line }
        }
    }
    var perTrial: [Int] { lock.withLock { counts } }
    var firstExample: String? { lock.withLock { example } }
}
let tally = WentBackTally()

// Concurrent: even iterations store. Each submits, from its own thread and without waiting in
// between, versions 1 to 4 of a document of its own (`own-N`), plus a new version of one of two
// shared documents, then waits for every completion: the own document must hold version 4, whole.
// Odd iterations read: the shared documents through `load` and straight from the file (a few
// times), as another process would, and a neighbour's own document through `load`, which must
// hold at least the last version whose store had completed. Every read must be whole. All along,
// a watcher (another process) keeps reading the shared documents: once stored, they must be there.
struct Trial: Sendable {
    let folder: URL
    let store: DocumentStore
    let wentBack: WentBack
    /// The trial's reads that checked a payload, and those that found it torn: each torn read is
    /// also the trial's inconsistency, so the two counts say the same thing, the second out of the
    /// first.
    let reads: TornCount
    /// The trial's torn reads in words, for its check to report (see `TornReads`).
    let torn: TornReads
    /// The trial's stores and those that failed.
    let failures: StoreFailures
    /// The reader that keeps reading the shared documents while the trial runs.
    let watcher: Watcher
}

/// A reader outside the store (another process) that reads the shared documents again and again,
/// from the trial's start until its check: a moment with no file at all (a store that removes the
/// document before it moves the new file in) lasts a few microseconds, too short for the readers'
/// few looks to meet. Most of its reads open the file and read its first bytes, which is quick
/// (counted in `missingReads` only); one in four reads it whole and checks it (`readOutside`).
/// Its rounds are paced by the stores, `roundsPerStore` for each store completed so far, up to
/// `rounds` a trial: spread over the trial's stores, a few thousand opens meet a missing or torn
/// file as surely as millions, and a watcher that never waits takes a core from the store it checks.
final class Watcher: @unchecked Sendable {
    /// Rounds (each opens both shared documents) per store completed so far in the trial.
    static let roundsPerStore = 4
    /// Rounds a trial at most: 2 opens each, 4,000 opens, about as many as the trial's 500 stores
    /// allow at `roundsPerStore`.
    static let rounds = 2_000
    private let lock = NSLock()
    private var (running, stopping) = (false, false)
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts the watcher on a thread of its own.
    func start(_ trial: Trial) {
        lock.withLock { running = true }
        Thread.detachNewThread { [self] in
            let paths = ["shared-0", "shared-1"].map { ($0, trial.folder.appendingPathComponent($0).path) }
            var header = [UInt8](repeating: 0, count: 64)
            var round = 0
            while !lock.withLock({ stopping }) && round < Self.rounds {
                // Ahead of the stores: wait for the next one to complete (a store is hundreds of
                // microseconds; the wait costs no core).
                guard round < Self.roundsPerStore * (trial.wentBack.storesCompleted + 1) else {
                    usleep(50)
                    continue
                }
                round += 1
                for (name, path) in paths {
                    guard round % 4 != 0 else {
                        readOutside(name, in: trial)
                        continue
                    }
                    let stored = trial.wentBack.completedVersion(of: name) > 0
                    let descriptor = open(path, O_RDONLY)
                    let missing = descriptor < 0 && errno == ENOENT
                    if descriptor >= 0 {
                        _ = read(descriptor, &header, header.count)
                        close(descriptor)
                    }
                    if stored { missingReads.outsideRead(missing: missing) }
                }
                sched_yield()
            }
            stopped.signal()
        }
    }
    /// Stops the watcher and waits until it has (once; later calls return at once).
    func stop() {
        let first = lock.withLock {
            defer { stopping = true }
            return running && !stopping
        }
        if first { stopped.wait() }
    }
}

/// A trial's torn reads: how many, and the first few in words. The trial's check reports them as
/// its inconsistencies, so that its histogram row says in one vocabulary (torn, whole) both what the
/// readers saw and what the files held at the end.
final class TornReads: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = 0
    private var lines: [String] = []

    func record(_ line: String) {
        lock.withLock {
            seen += 1
            if lines.count < 3 { lines.append(line) }
        }
    }
    var count: Int { lock.withLock { seen } }
    var samples: [String] { lock.withLock { lines } }
}

/// Reads of a document whose store had completed before the read began, and those that found no
/// file: nothing in the check removes a document, so each of those saw a store take the file away.
final class MissingReads: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (outside: 0, outsideMissing: 0, loads: 0, loadsMissing: 0)

    func outsideRead(missing: Bool) {
        lock.withLock {
            counts.outside += 1
            if missing { counts.outsideMissing += 1 }
        }
    }
    func load(missing: Bool) {
        lock.withLock {
            counts.loads += 1
            if missing { counts.loadsMissing += 1 }
        }
    }
    var all: (outside: Int, outsideMissing: Int, loads: Int, loadsMissing: Int) { lock.withLock { counts } }
}
let missingReads = MissingReads()

/// The torn reads of the whole run by who read: the store's `load`, or a reader outside its queue.
final class TornBy: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (loads: 0, outside: 0)

    func load() { lock.withLock { counts.loads += 1 } }
    func outsideRead() { lock.withLock { counts.outside += 1 } }
    var loads: Int { lock.withLock { counts.loads } }
    var outside: Int { lock.withLock { counts.outside } }
}
let tornBy = TornBy()

/// Reads `shared` straight from its file, as a reader outside the store (another process) would:
/// counts it for the torn reads, and, when a store of it completed before, for the missing ones.
func readOutside(_ shared: String, in trial: Trial) {
    let stored = trial.wentBack.completedVersion(of: shared) > 0
    let read = Result { try Data(contentsOf: trial.folder.appendingPathComponent(shared)) }
    if stored {
        var missing = false
        if case .failure(let error) = read { missing = isMissingFile(error) }
        missingReads.outsideRead(missing: missing)
    }
    if case .success(let data) = read, trial.reads.isTorn(data) {
        tornBy.outsideRead()
        trial.torn.record(
            "torn read: a reader outside the store found \(shared) (a document every writer "
                + "stores) torn (\(data.count.formatted()) bytes)"
        )
    }
}

extension TornCount {
    /// Counts a read of `data` and returns whether it was torn.
    func isTorn(_ data: Data) -> Bool { count(torn: Payload.version(of: data) == nil) }
}
/// What the torn-read tally counts, as its line reads: `12 of 14,400 reads torn (…)`.
let tornPhrase = "reads torn (loads and direct reads of the files)"
let writersPerTrial = 100
let versions = 4
let variant = ExerciseCheck.variant(
    of: "DocumentStore",
    makeState: {
        let folder = try makeFolder()
        let trial = Trial(
            folder: folder,
            store: DocumentStore(folder: folder),
            wentBack: WentBack(),
            reads: TornCount(tornPhrase),
            torn: TornReads(),
            failures: StoreFailures(),
            watcher: Watcher()
        )
        trial.watcher.start(trial)
        return trial
    },
    operation: { trial, iteration in
        let shared = "shared-\((iteration.index / 2) % 2)"
        if iteration.index % 2 == 0 {
            let own = "own-\(iteration.index)"
            let group = DispatchGroup()
            let failure = Failure()
            group.enter()
            trial.store.store(Payload.make(version: iteration.index), as: shared) { error in
                if let error {
                    failure.record(error)
                } else {
                    trial.wentBack.complete(shared, version: iteration.index + 1)
                }
                trial.failures.record(error)
                storeFailures.record(error)
                group.leave()
            }
            for version in 1...versions {
                group.enter()
                trial.store.store(Payload.make(version: version), as: own) { error in
                    if let error {
                        failure.record(error)
                    } else {
                        trial.wentBack.complete(own, version: version)
                        trial.wentBack.checkFile(own, in: trial.folder, completing: version)
                    }
                    trial.failures.record(error)
                    storeFailures.record(error)
                    group.leave()
                }
            }
            guard group.wait(timeout: .now() + 30) == .success else { throw CompletionMissing(name: own) }
            storeFailures.recordWriter(failed: failure.error != nil)
            if let error = failure.error { throw StoreError(error: error) }
        } else {
            // A document stored before the read began must be there: the check never removes one.
            let sharedStored = trial.wentBack.completedVersion(of: shared) > 0
            let loaded = try trial.store.load(shared)
            if sharedStored { missingReads.load(missing: loaded == nil) }
            if let data = loaded, trial.reads.isTorn(data) {
                tornBy.load()
                trial.torn.record(
                    "torn read: load(\"\(shared)\") (a document every writer stores) returned "
                        + "\(data.count.formatted()) bytes, not a whole version"
                )
            }
            for _ in 0..<4 {  // outside readers are cheap and the window is narrow: look a few times
                readOutside(shared, in: trial)
            }
            let neighbour = "own-\(iteration.index - 1)"
            for _ in 0..<versions {
                let completed = trial.wentBack.completedVersion(of: neighbour)
                let loaded = try trial.store.load(neighbour)
                if completed > 0 { missingReads.load(missing: loaded == nil) }
                guard let data = loaded else { continue }
                guard !trial.reads.isTorn(data), let version = Payload.version(of: data) else {
                    tornBy.load()
                    trial.torn.record(
                        "torn read: load(\"\(neighbour)\") (one writer's own document) returned a torn payload"
                    )
                    continue
                }
                if version < completed {
                    trial.wentBack.record(
                        neighbour,
                        "a load of \(neighbour) (one writer's own document) returned v\(version) after the "
                            + "store of v\(completed) completed"
                    )
                }
            }
        }
    },
    check: { trial, info in
        trial.watcher.stop()
        let writers = (info.iterations + 1) / 2
        var landed = 0
        for writer in 0..<writers {
            let own = "own-\(writer * 2)"
            let data = try? Data(contentsOf: trial.folder.appendingPathComponent(own))
            guard let version = data.flatMap(Payload.version(of:)) else { continue }
            landed += 1
            if version < versions {
                trial.wentBack.record(
                    own,
                    "\(own) (one writer's own document) holds v\(version) after v1…v\(versions) were "
                        + "stored in order and all completed"
                )
            }
        }
        // A failed store leaves its document older: not a store that landed out of order.
        if trial.failures.counts.failed == 0 {
            tally.add(trial.wentBack.count, example: trial.wentBack.firstExample)
        }
        for shared in ["shared-0", "shared-1"] {
            // A file that cannot be read counts as torn: it holds no whole payload.
            let data = (try? Data(contentsOf: trial.folder.appendingPathComponent(shared))) ?? Data()
            if trial.reads.isTorn(data) {
                tornBy.outsideRead()
                trial.torn.record(
                    "torn read: \(shared) (a document every writer stores) is torn at the end "
                        + "(\(data.count.formatted()) bytes)"
                )
            }
        }
        var observation = Observation.whole(landed, of: writers, tornReads: trial.torn.count)
        // Each torn read is one inconsistency (the end's reads of the shared files included), the
        // same count as the `reads torn` tally.
        observation.inconsistencies = trial.torn.count
        observation.samples = trial.torn.samples
        observation.tallies.append(trial.reads.tally)
        return observation
    },
    tearDown: { trial in
        trial.watcher.stop()
        try? FileManager.default.removeItem(at: trial.folder)
    }
)
extension Observation {
    /// A trial's row, in the words the FAIL line uses (torn, whole): whether a read found a torn
    /// file, and how many of the trial's `writers` documents are whole at the end, the others torn.
    /// Torn documents are grouped in tens, so that 16 trials print a few rows.
    static func whole(_ whole: Int, of writers: Int, tornReads: Int) -> Observation {
        let torn = writers - whole
        let range =
            torn < 10 ? "1–9" : torn == writers ? "\(writers)" : "\(torn / 10 * 10)–\(min(torn / 10 * 10 + 9, writers))"
        let (end, atEnd) =
            torn == 0
            ? ("all \(writers) whole", "every document whole at the end")
            : ("\(range)/\(writers) torn", "\(range) of \(writers) documents torn at the end")
        let (reads, readers) = tornReads > 0 ? ("torn reads", "reads saw torn files") : ("no torn read", "no read torn")
        return Observation(
            expected: writers,
            observed: whole,
            lostWrites: torn,
            outcome: "\(reads) · \(end)",
            meaning: "\(readers); \(atEnd)"
        )
    }
}
let trials = 16
/// The stress run and what it saw, then the verdict.
func concurrentChecks() -> Never {
    check.stress(
        variant,
        workload: Workload(trials: trials, iterations: writersPerTrial * 2),
        requirement: "100 writers and 100 readers at once: no torn read, every document whole (every trial)",
        lostOutOf: { trials in (trials * writersPerTrial, "documents torn at the end") },
        lostKind: "torn-at-end",
        inconsistent: tornPhrase,
        // The store has no marked window (the starter does not import RaceLab), so noise adds no
        // pause: the calls' own threads are what interleave them. `threads` is the runner's, one
        // per core of this machine.
        unmarked: { threads in
            let operations = "\(writersPerTrial) writers and \(writersPerTrial) readers"
            return threads > 1
                ? "noise on; \(operations) shared the machine's \(threads) cores; "
                    + "no `Race.window` in your file, so no pauses were added"
                : "noise on; \(operations) took turns on one core; "
                    + "no `Race.window` in your file, so no pauses were added"
        }
    )
    // Which readers found a file torn: the store's own loads run on its queue, a reader outside it does
    // not. Torn files seen only from outside mean the queue orders the store's work and the file is
    // still written in place.
    let tornLoads = tornBy.loads
    let tornOutside = tornBy.outside
    let (failedStores, stores) = storeFailures.counts
    if failedStores > 0, let error = storeFailures.firstError {
        // What failed, for the hint: a file the store made itself vanished (another store's rename took
        // a staging file they share), or some other error. The stores' count beside the writing
        // operations', which the `errors` count above counts (one error per operation).
        let missing = isMissingFile(error)
        let writers = storeFailures.writerCounts
        check.diagnose(
            missing ? "staging-name" : "store-failed",
            "seen in the run: \(failedStores.formatted()) of \(stores.formatted()) stores failed, in "
                + "\(writers.failed.formatted()) of \(writers.all.formatted()) writing operations "
                + "(\(versions + 1) stores each): "
                + (missing
                    ? "a file they wrote was gone before they were done (`staging-name`)"
                    : "an error other than a missing file (`store-failed`)")
        )
    } else if tornLoads > 0 {
        check.diagnose(
            "torn-load",
            "seen in the run: \(tornLoads.formatted()) of the torn reads were the store's own `load` (`torn-load`)"
        )
    } else if tornOutside > 0 {
        check.diagnose(
            "torn-outside",
            "seen in the run: all \(tornOutside.formatted()) torn reads were made outside the store's queue"
                + " (straight from the file); no `load` was torn (`torn-outside`)"
        )
    }
    let perTrial = tally.perTrial
    let wentBack = perTrial.reduce(0, +)
    // The participant's file, read once for every reading of the code below.
    let code = participantCode("DocumentStore.swift")
    // `store` hops to a global queue or a task, which keep no order, before it queues its barrier.
    let hop = QueuedLate.found(in: code)
    let unorderedHop = hop.flatMap { $0.unordered ? $0 : nil }
    let documents = perTrial.count * writersPerTrial
    if perTrial.isEmpty {
        if failedStores == 0 {
            check.require(false, "stores of one document land in order", evidence: "no trial finished its check")
        } else {
            check.note("stores of one document land in order: not checked, a store failed in every trial")
        }
    } else if wentBack == 0 && perTrial.count < trials {
        // Trials where a store failed are not checked: none went back in the others, which is no pass.
        check.note(
            "stores of one document land in order: checked in \(perTrial.count.formatted()) of "
                + "\(trials) trials only (the others had errors); none of "
                + "\(documents.formatted()) documents went back there"
        )
    } else {
        // The ok line says what was checked; a FAIL line's evidence says what went back. A store that
        // hops to a global (concurrent) queue before it queues its barrier fails from the code alone:
        // whether a run sees two stores overtake is luck, the order is not guaranteed either way.
        let unordered = wentBack == 0 && failedStores == 0 ? unorderedHop : nil
        check.require(
            wentBack == 0 && unordered == nil,
            "stores of one document land in the order they were made"
                + (wentBack > 0 || unordered != nil
                    ? ""
                    : ": none of \(documents.formatted()) documents went back (\(perTrial.count.formatted()) trial\(perTrial.count == 1 ? "" : "s")"
                        + " × \(writersPerTrial) documents, each stored v1…v\(versions) in order)"),
            // With stores failing, the hint follows the error, as the stress run's does.
            kind: failedStores > 0 ? "errors" : "unordered-stores",
            evidence: unordered != nil
                ? "none of \(documents.formatted()) documents went back in this run, but their order is not "
                    + "guaranteed (read from your code, below)"
                : "\(wentBack.formatted()) of \(documents.formatted()) documents went back to an older version"
                    + " (per trial, of \(writersPerTrial): \(perTrial.map { $0.formatted() }.joined(separator: ", ")))"
                    + (failedStores > 0 ? ", in the trials where no store failed" : "")
        )
        if let unordered { check.diagnose("queued-late", QueuedLate.line(unordered)) }
    }
    if wentBack > 0, let example = tally.firstExample {
        if failedStores > 0 {
            check.diagnose("errors", "e.g. went back: \(example)")
        } else {
            check.diagnose("unordered-stores", "e.g. went back: \(example) (`unordered-stores`)")
            // Why, when the code says so: the barrier flag sent to a global queue.
            if GlobalBarrier.found(in: code) {
                check.diagnose(
                    "global-barrier",
                    "read from your code: a barrier on a global queue is ignored: stores run beside stores "
                        + "(`global-barrier`)"
                )
            } else if let made = QueuePerStore.found(in: code) {
                check.diagnose(
                    "new-queue",
                    "read from your code: each store makes a new queue (\(made)), and a barrier orders only "
                        + "the work of its own queue: a store's barrier waits for no other store (`new-queue`)"
                )
            } else if let hop {
                check.diagnose("queued-late", QueuedLate.line(hop))
            }
        }
    } else if wentBack == 0, failedStores == 0, unorderedHop == nil, let hop {
        // A hop to a queue the code names, which may be serial (then it keeps the calls' order), or a
        // task that inherits an actor: read
        // from the code alone, the run having seen no store overtaken, a note, not a FAIL.
        check.note(
            hop.serial
                ? "read from your code: `store` queues its barrier from \(hop.phrase): stores keep their "
                    + "order, but `store` returns before its barrier is queued, so a `load` right after it can "
                    + "miss the store: submit the barrier in `store` itself"
                : "read from your code: `store` queues its barrier from \(hop.phrase); this run saw no store "
                    + "overtake another, but one can: submit the barrier in `store` itself"
        )
    }
    // A document whose store completed is on disk from then on (the check removes none): a reader
    // that finds no file saw a store take it away before putting the new one in place.
    let reads = missingReads.all
    let missing = "a stored document is never missing to a reader"
    if reads.outside + reads.loads == 0 {
        check.note("\(missing): not checked, no read began after a store of its document completed")
    } else {
        check.require(
            reads.outsideMissing + reads.loadsMissing == 0,
            missing
                + (reads.outsideMissing + reads.loadsMissing > 0
                    ? ""
                    : ": none of \(reads.outside.formatted()) opens from outside the store and \(reads.loads.formatted()) "
                        + "loads found no file"),
            kind: "missing-file",
            evidence:
                "\(reads.outsideMissing.formatted()) of \(reads.outside.formatted()) opens from outside the store found no "
                + "file for a stored document"
                + (reads.loadsMissing > 0
                    ? "; \(reads.loadsMissing.formatted()) of \(reads.loads.formatted()) loads returned nil for one"
                    : "")
                + " (`missing-file`)"
        )
    }
    check.finish()
}

// The checks run on a thread of their own while the main thread serves the main queue, as an app's
// does: a store may call its completion on the main queue (`DispatchQueue.main.async`), and a check
// waiting for it on the main thread would wait forever. `finish()` exits from the checking thread.
Thread.detachNewThread {
    functionalChecks()
    concurrentChecks()
}
dispatchMain()

/// Read from the participant's code (comments and strings left out): a work item submitted with
/// the `.barrier` flag to a global queue, directly (`DispatchQueue.global().async(flags: .barrier)`)
/// or through a property set to one. libdispatch ignores the flag there: the item runs beside others.
enum GlobalBarrier {
    static func found(in code: String) -> Bool {
        let barrier = #"\.async\s*\(\s*flags:\s*\[?\s*\.barrier"#
        let direct = try? Regex(#"\.global\s*\([^)]*\)\s*"# + barrier)
        if let direct, code.contains(direct) { return true }
        // `let queue = DispatchQueue.global()` (or `= .global(qos: …)`), then `queue.async(flags: .barrier)`.
        guard
            let stored = try? Regex(
                #"(?:let|var)\s+(\w+)\s*(?::\s*DispatchQueue\s*)?=\s*(?:DispatchQueue)?\.global\s*\("#
            )
        else { return false }
        return code.matches(of: stored).contains { match in
            guard let name = match.output[1].substring, let use = try? Regex(#"(?:^|\W)"# + name + #"\s*"# + barrier)
            else { return false }
            return code.contains(use)
        }
    }
}

/// Read from the participant's code (comments and strings left out): `store` hops to another queue
/// first (`DispatchQueue.global().async { … }`) and submits its barrier to the store's queue from
/// inside that block (`queue.sync(flags: .barrier)` or `.async(flags: .barrier)`). The barrier is then
/// queued when the block runs (often after `store` has returned), not in the order of the calls: two
/// stores' blocks run on two threads, and the later one can queue its barrier first.
enum QueuedLate {
    /// Where `store` queues its barrier from: a block on a queue it names, or a task.
    struct Hop: Equatable {
        /// `a block on `DispatchQueue.global()``, `a `Task``: what the diagnosis says.
        let phrase: String
        /// Whether the hop keeps no order by definition: a global (concurrent) queue, a queue the
        /// code makes `.concurrent`, or a task that runs on the global executor (a `Task.detached`,
        /// or a `Task` in code with no actor or `@MainActor` to inherit).
        let unordered: Bool
        /// Whether the hop is to a queue the code makes serial (no `.concurrent`): it keeps the
        /// calls' order, but `store` returns before its barrier is queued.
        var serial = false
    }

    /// The hop `store` makes before it queues its barrier, or nil.
    static func found(in code: String) -> Hop? {
        guard let store = BraceMatching.body(of: "func store", in: code),
            let outer = try? Regex(#"((?:\w+\s*\.\s*)*\w+(?:\s*\([^)]*\))?)\s*\.\s*async\s*(?:\([^)]*\))?\s*\{"#),
            let task = try? Regex(#"(?:^|\W)(Task(?:\s*\.\s*detached)?)\s*(?:\([^)]*\))?\s*\{"#),
            let barrier = try? Regex(#"((?:\w+\s*\.\s*)*\w+)\s*\.\s*(?:sync|async)\s*\(\s*flags:\s*\[?\s*\.barrier"#)
        else { return nil }
        let bare = { (name: Substring) in
            String(name.filter { !$0.isWhitespace }).replacing(#/^self\./#, with: "")
        }
        for match in store.matches(of: outer) {
            guard let hop = match.output[1].substring,
                let block = BraceMatching.block(after: store[match.range.upperBound...])
            else { continue }
            for inner in block.matches(of: barrier) {
                guard let queue = inner.output[1].substring, bare(queue) != bare(hop) else { continue }
                let name = bare(hop)
                // A queue the code makes `.concurrent` keeps no order either, as a global one.
                let made = (try? Regex(#"(?:let|var)\s+\#(name)\b[^=\n]*=\s*DispatchQueue\s*\(([^)]*)\)"#))
                    .flatMap { code.firstMatch(of: $0) }
                    .flatMap { $0.output[1].substring.map(String.init) }
                let concurrent = made?.contains(".concurrent") ?? false
                let serial = made.map { !$0.contains("attributes") } ?? false
                return Hop(
                    phrase: "a block on `\(name)`"
                        + (concurrent ? ", a concurrent queue" : serial ? ", a serial queue" : ""),
                    unordered: name.contains(".global") || name.hasPrefix("global") || concurrent,
                    serial: serial
                )
            }
        }
        let isolated = code.contains("@MainActor") || code.contains(#/(?:^|\W)actor\s+\w/#)
        for match in store.matches(of: task) {
            guard let hop = match.output[1].substring,
                let block = BraceMatching.block(after: store[match.range.upperBound...]),
                block.contains(barrier)
            else { continue }
            let name = bare(hop)
            return Hop(phrase: "a `\(name)`", unordered: name != "Task" || !isolated)
        }
        return nil
    }

    /// The diagnosis line for a store that hops first.
    static func line(_ hop: Hop) -> String {
        "read from your code: `store` queues its barrier from \(hop.phrase), so only when that block "
            + "runs, not in the order of the calls: a later store can queue its barrier first (`queued-late`)"
    }
}

/// Read from the participant's code (comments and strings left out): the queue a store submits to
/// is made anew for each store, by a `DispatchQueue(` call in the body of `store(_:as:completion:)`
/// or by a computed property that returns a new queue each time it is read
/// (`var queue: DispatchQueue { DispatchQueue(label: …) }`). Each such queue holds one store: its
/// barrier has nothing to wait for.
enum QueuePerStore {
    /// How `store` makes its queue, in words for the diagnosis, or nil when the code does not.
    static func found(in code: String) -> String? {
        guard let store = BraceMatching.body(of: "func store", in: code), let call = try? Regex(#"DispatchQueue\s*\("#),
            let computed = try? Regex(#"var\s+(\w+)\s*:\s*DispatchQueue\s*\{[^}]*DispatchQueue\s*\("#)
        else { return nil }
        if store.contains(call) { return "`store` calls `DispatchQueue(`" }
        // A computed queue counts where `store` submits to it.
        for match in code.matches(of: computed) {
            guard let name = match.output[1].substring,
                let use = try? Regex(#"(?:^|\W)"# + name + #"\s*\.\s*async"#), store.contains(use)
            else { continue }
            return "`store` submits to `\(name)`, a computed property that makes one each time it is read"
        }
        return nil
    }
}

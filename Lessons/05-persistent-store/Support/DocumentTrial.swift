import Foundation
import RaceLab

/// One trial of lesson 5: a store holding a few documents that iterations overwrite and load
/// through the store, while an `OutsideReader` reads the same files directly, as another process
/// would. Every read is checked for tearing.
///
/// Iteration `i` works on document `(i / 4) % documents`: `i % 4` of 0 or 1 stores a new version,
/// 2 or 3 loads it through the store.
///
/// Versions are numbered in the provider (inside the store's write, or in `fixed` just before the
/// write is queued), so under the barrier the version numbers of one document are written in order
/// and the last successful store holds the highest. A store that reported success but whose
/// version is above the one left on disk was **lost**; so was a store that failed because of the
/// race (another writer's rename took its staging file). A file that is not a whole version is
/// **torn**, and one holding the version of a store that reported failure is inconsistent too.
///
/// With `slowEncodes`, each store's provider takes longer (an image encoded, say) and makes one
/// load through the store while it runs (`StoreLoader`), counting the loads that **waited for the
/// encode**: the outcome of a clean trial says what share of the loads made during an encode did.
/// It is measured, not a verdict: both stores that encode slowly are correct.
///
/// A store or load that failed because of its surroundings (a full disk, a read-only folder, no
/// descriptors left: see `isEnvironmental`) is an **error**, reported in `Observation.errors`: it
/// says nothing about the race, so the trial counts as neither a reproduction nor a failure.
final class DocumentTrial: @unchecked Sendable {
    static let documents = 4
    /// With its header a payload is 12,028 bytes, just under three 4 KiB chunks: each store is three
    /// `write` calls.
    static let bodyLength = 12_000

    let parent: URL
    /// The stores open on the trial's folder: one, or two as in `two-stores` (iteration `i` goes
    /// through store `i % stores.count`).
    let stores: [PersistentDataStore]
    var store: PersistentDataStore { stores[0] }
    private let completions = DispatchQueue(label: "racelab.documents.completions")
    /// Runs the stores one after another when encodes are slow (`saveInTurn`).
    private let saver = DispatchQueue(label: "racelab.documents.saver")
    private let pending = DispatchGroup()
    private let lock = NSLock()
    /// One per document: held across a `storeData` call (`storeNewVersion`).
    private let storeCalls = (0..<documents).map { _ in NSLock() }
    private var nextVersion: [Int]
    /// Which store (its index in `stores`) took each version of each document, so that a file
    /// that went back can say whether the two stores went through one queue or two.
    private var takenThrough: [[Int: Int]]
    private var succeeded: [[Int]]
    private var failedStores = 0
    private var firstFailure: String?
    /// Stores that failed for a reason outside the race (see `isEnvironmental`).
    private var environmentFailures = 0
    private var firstEnvironmentFailure: String?
    private let outsideReader: OutsideReader
    private var outside: (reads: Int, torn: Int, firstTorn: String?, backInTime: Int) = (0, 0, nil, 0)
    /// Successful stores whose file already held an older version when their completion read it.
    private var overtaken = 0
    /// The first store found overtaken, in words: the run's example of a file going back.
    private var firstOvertaken: String?
    /// Whether completions read their file back (`checkNotOvertaken`): not under the schedule
    /// explorer, which does not schedule the completion queue, so the read would make a replay
    /// differ from the schedule it replays.
    private let watchesCompletions: Bool
    /// Whether providers do extra work and the trial measures the loads that wait for it.
    private let slowEncodes: Bool
    /// The encodes running now, by number, and the next number.
    private var encoding: Set<Int> = []
    private var nextEncode = 0
    /// Loads through the store beside the iterations, when encodes are slow.
    private var loader: StoreLoader?
    /// What the loader counted: loads made during an encode, and those that waited for it.
    private var loads: (madeDuringEncodes: Int, waited: Int) = (0, 0)

    /// - Parameters:
    ///   - outsideReaderThread: false for the schedule explorer, whose threads read the files
    ///     themselves with `readOutside(document:)` instead of a free-running thread (and whose
    ///     completions do not read their file back).
    ///   - stores: how many stores to open on the one folder (more than one needs a discipline
    ///     that does not claim the folder).
    ///   - slowEncodes: providers do extra work, and the trial counts the loads that wait for it.
    init(
        discipline: WriteDiscipline,
        stores count: Int = 1,
        outsideReaderThread: Bool = true,
        slowEncodes: Bool = false
    ) throws {
        watchesCompletions = outsideReaderThread
        self.slowEncodes = slowEncodes
        parent = try ScratchSpace.makeFolder(label: "persistent-store")
        // With more than one store, each names its queues (`store A barrier`, `store B barrier`), so
        // that a schedule shows two queues whose barriers order nothing between them.
        let instances = count > 1 ? (0..<count).map(Self.storeName) : [nil]
        stores = try instances.map { [parent, completions] instance in
            try PersistentDataStore(
                name: "documents",
                in: parent,
                completionQueue: completions,
                discipline: discipline,
                instance: instance
            )
        }
        let store = stores[0]
        // Version 0 of every document, as an earlier launch of the app left it.
        for document in 0..<Self.documents {
            let payload = Payload(document: document, version: 0, bodyLength: Self.bodyLength)
            try payload.encoded().write(to: URL(fileURLWithPath: store.path(of: Self.identifier(document))))
        }
        nextVersion = Array(repeating: 1, count: Self.documents)
        takenThrough = Array(repeating: [:], count: Self.documents)
        succeeded = Array(repeating: [0], count: Self.documents)
        let paths = (0..<Self.documents).map { [store] in store.path(of: Self.identifier($0)) }
        outsideReader = OutsideReader(paths: paths)
        if outsideReaderThread { outsideReader.start() }
        if slowEncodes {
            loader = StoreLoader(
                identifiers: (0..<Self.documents).map(Self.identifier),
                pending: pending,
                isEncoding: { [self] number in lock.withLock { encoding.contains(number) } }
            )
        }
    }

    /// The name of the store at `index` in `stores`, as its queues and samples say it: `store A`.
    static func storeName(_ index: Int) -> String {
        "store \(Character(UnicodeScalar(65 + index)!))"
    }

    static func identifier(_ document: Int) -> String {
        "document-\(document)"
    }

    func perform(_ iteration: Iteration) {
        let document = (iteration.index / 4) % Self.documents
        let through = stores[iteration.index % stores.count]
        switch iteration.index % 4 {
        case 0, 1:
            if slowEncodes {
                saveInTurn(document, through: through)
            } else {
                storeNewVersion(of: document, through: through)
            }
        default: loadThroughStore(document, iteration, through: through)
        }
    }

    /// Stores `document` once the stores saved before it have completed, as a user saving one
    /// document after another does: with slow encodes, the store's queue then holds one store at a
    /// time, and the load each encode makes meets that encode, not a backlog of them.
    private func saveInTurn(_ document: Int, through store: PersistentDataStore) {
        pending.enter()
        saver.async { [self] in
            let saved = DispatchSemaphore(value: 0)
            storeNewVersion(of: document, through: store) { saved.signal() }
            saved.wait()
            pending.leave()
        }
    }

    /// Waits until every completion of the trial has run, then stops the outside reader.
    func finished() async {
        await withCheckedContinuation { continuation in
            pending.notify(queue: completions) { continuation.resume() }
        }
        stopOutsideReader()
    }

    /// `finished()` for the schedule explorer's invariant, which runs on a thread of its own once
    /// every store has delivered its result: only the completions themselves may still be running.
    func finishedBlocking() {
        pending.wait()
        stopOutsideReader()
    }

    /// Reads `document`'s file once, directly, as the outside reader's thread does.
    func readOutside(document: Int) {
        outsideReader.read(document: document)
    }

    private func stopOutsideReader() {
        let seen = outsideReader.stop()
        let counted = loader?.counts ?? (0, 0)
        lock.withLock {
            outside = seen
            loads = counted
        }
    }

    /// Reads every document from disk and compares it with the stores that succeeded; adds the
    /// torn reads the outside reader saw (those seen by loads were recorded as they happened).
    func verify() -> Observation {
        verifyInDetail().observation
    }

    /// `verify()`, with every problem found in words and numbers: what the schedule explorer
    /// reports for one schedule. (A trial's histogram row keeps one meaning for all its trials, so
    /// the observation's meaning names the kinds of problem only.)
    func verifyInDetail() -> (observation: Observation, details: String) {
        lock.lock()
        defer { lock.unlock() }
        var current = 0
        var lost = failedStores
        var torn = 0
        var orphaned = 0
        // The newest store left overwritten, and the older version that holds its file.
        var firstOverwritten: (newer: Int, older: Int, document: Int)?
        for document in 0..<Self.documents {
            let data = try? DataFile.contents(of: store.path(of: Self.identifier(document)))
            guard let data, let payload = Payload(validating: data) else {
                torn += 1
                continue
            }
            let latest = succeeded[document].max() ?? 0
            let overwritten = succeeded[document].filter { $0 > payload.version }
            lost += overwritten.count
            if firstOverwritten == nil, let newer = overwritten.max() {
                firstOverwritten = (newer, payload.version, document)
            }
            if payload.version == latest { current += 1 }
            // Data whose store reported failure: another store renamed it into place.
            if payload.version > latest { orphaned += 1 }
        }
        var problems: [String] = []
        if outside.torn > 0 {
            problems.append(
                "the outside reader saw \(outside.torn) of \(outside.reads) reads torn (e.g. \(outside.firstTorn ?? "?"))"
            )
        }
        let wentBack = overtaken + outside.backInTime
        if wentBack > 0 {
            problems.append(
                "an older version replaced a newer one (\(Self.count(overtaken, "store")) found so on completion, "
                    + "\(Self.count(outside.backInTime, "outside read")) went back)"
            )
        }
        if torn > 0 { problems.append(Self.count(torn, "file") + " torn") }
        if orphaned > 0 { problems.append(Self.count(orphaned, "file") + " holding a store that reported failure") }
        if lost > failedStores {
            problems.append(
                Self.count(lost - failedStores, "store") + " overwritten by "
                    + (lost - failedStores == 1 ? "an older one" : "older ones")
                    + (firstOverwritten.flatMap(throughStores) ?? "")
            )
        }
        if failedStores > 0 { problems.append(Self.count(failedStores, "store") + " failed (\(firstFailure ?? "?"))") }
        if environmentFailures > 0 {
            problems.append(
                Self.count(environmentFailures, "store") + " failed with an error, not the race ("
                    + (firstEnvironmentFailure ?? "?") + ")"
            )
        }
        // The outcome names every kind of problem; the meaning says what happened to the files not
        // current at the end (or that a file went back and was put right), short enough for one line.
        // A row keeps the meaning of its first trial, so what the meaning names is in the outcome
        // too: a file not current holds an older store, unless the outcome says it is torn or holds
        // a failed store's data.
        let end =
            torn + orphaned == 0
            ? []
            : (lost > failedStores ? ["older won"] : []) + (torn > 0 ? ["torn"] : [])
                + (orphaned > 0 ? ["failed store's data"] : [])
        var kinds: [String] = []
        if lost > failedStores { kinds.append("older stores won") }
        if torn > 0 { kinds.append("files torn at the end") }
        if orphaned > 0 { kinds.append("failed stores' data kept") }
        if kinds.isEmpty && wentBack > 0 { kinds.append("stale data for a while") }
        if outside.torn > 0 { kinds.append("reads torn") }
        var observation = Observation(
            expected: Self.documents,
            observed: current,
            lostWrites: lost,
            inconsistencies: torn + orphaned + outside.torn + wentBack,
            errors: environmentFailures,
            outcome: Self.outcome(
                current: current,
                wentBack: wentBack > 0,
                tornReads: outside.torn > 0,
                waited: kinds.isEmpty && slowEncodes ? waitedShare : nil,
                end: end
            ),
            meaning: kinds.isEmpty
                ? "every document holds its last store" + loadsMeaning : kinds.joined(separator: ", ")
        )
        if let firstOvertaken { observation.samples = ["went back: " + firstOvertaken] }
        // The bands above, as counts the run sums over its trials: `N of M loads ... waited`.
        if slowEncodes, loads.madeDuringEncodes > 0 {
            observation.tallies = [Tally(loads.waited, of: loads.madeDuringEncodes, Self.waitedPhrase)]
        }
        return (
            observation, problems.isEmpty ? "every document holds its last store" : problems.joined(separator: "; ")
        )
    }

    /// With more than one store, which store each version of an overwritten store went through
    /// (` (v2 through store B, v1 through store A)`), so that a failure shows two queues;
    /// nil with one store (the lock is held).
    private func throughStores(_ overwritten: (newer: Int, older: Int, document: Int)) -> String? {
        guard stores.count > 1, let newer = takenThrough[overwritten.document][overwritten.newer],
            let older = takenThrough[overwritten.document][overwritten.older]
        else { return nil }
        return
            " (v\(overwritten.newer) through \(Self.storeName(newer)), v\(overwritten.older) through \(Self.storeName(older)))"
    }

    /// A trial's outcome. A bad one leads with what went wrong; the documents current at the end
    /// follow, in words that do not read as good news: later stores can put right a file that went
    /// back. `waited` is the share of loads that waited for an encode, for a clean trial; `end`
    /// names what the files not current hold (`torn`, `older won`), when not only older stores.
    static func outcome(
        current: Int,
        wentBack: Bool,
        tornReads: Bool,
        waited: String?,
        end: [String] = []
    ) -> String {
        let failures = (wentBack ? ["went back"] : []) + (tornReads ? ["torn reads"] : [])
        let all = documents
        let state = "\(current)/\(all) current" + (end.isEmpty ? "" : " (\(end.joined(separator: ", ")))")
        guard !failures.isEmpty else {
            return ([state] + (waited.map { [$0] } ?? [])).joined(separator: " · ")
        }
        let rest =
            current < all
            ? " · " + state
            : wentBack ? " (later stores restored all \(all))" : " (all \(all) whole at the end)"
        return failures.joined(separator: " · ") + rest
    }

    /// What the loads' tally counts, after `N of M`: what was measured, not what a load waited for
    /// (inside the barrier the encode itself; before it, a free thread of the queue).
    static let waitedPhrase = "loads made during an encode ran only after it ended"

    /// How many of the loads made during an encode waited for it, in bands (the lock is held).
    private var waitedShare: String {
        guard loads.madeDuringEncodes > 0 else { return "no load during an encode" }
        let share = Double(loads.waited) / Double(loads.madeDuringEncodes)
        switch share {
        case 1: return "loads during encodes: all waited"
        case 0: return "loads during encodes: none waited"
        case ..<0.1: return "loads during encodes: <10% waited"
        case ..<0.5: return "loads during encodes: 10–49% waited"
        default: return "loads during encodes: 50–99% waited"
        }
    }

    /// What the loads' share says, for a clean trial with slow encodes (the lock is held).
    private var loadsMeaning: String {
        guard slowEncodes, loads.madeDuringEncodes > 0 else { return "" }
        return loads.waited * 2 >= loads.madeDuringEncodes
            ? "; loads wait while a store encodes" : "; loads run while a store encodes"
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    func remove() {
        _ = outsideReader.stop()
        ScratchSpace.remove(parent)
    }

    /// - Parameter then: runs after the store's completion recorded its result.
    func storeNewVersion(
        of document: Int,
        through store: PersistentDataStore? = nil,
        then: (@Sendable () -> Void)? = nil
    ) {
        let version = VersionBox()
        pending.enter()
        let store = store ?? self.store
        // Calls for one document are made one at a time, so that the order they were made is the
        // order of their version numbers: in `fixed` the provider numbers the version inside
        // `storeData`, before the write is queued, and two callers at once could number in one order
        // and queue in the other. Elsewhere `storeData` only queues. Not under the explorer, whose
        // step holds the whole call (a lock held across a pause would block the other threads).
        if watchesCompletions { storeCalls[document].lock() }
        defer { if watchesCompletions { storeCalls[document].unlock() } }
        store.storeData(
            { [self] in
                let number = takeVersion(of: document, through: store)
                version.set(number)
                let payload = Payload(document: document, version: number, bodyLength: Self.bodyLength).encoded()
                if slowEncodes { encodeSlowly(for: store) }
                return payload
            },
            identifier: Self.identifier(document),
            completion: { [self] result in
                record(result, version: version.get(), of: document)
                if watchesCompletions, case .success = result, let number = version.get() {
                    checkNotOvertaken(number, of: document, through: store)
                }
                then?()
                pending.leave()
            }
        )
    }

    /// A slow encode: the provider takes `encodeMicroseconds` more, while the trial knows it runs.
    /// It sleeps rather than spins, so that on a machine of two cores the loads that may run
    /// meanwhile find a core, as they would beside an encoder that waits on the disk or the GPU.
    private func encodeSlowly(for store: PersistentDataStore) {
        let number = lock.withLock {
            nextEncode += 1
            encoding.insert(nextEncode)
            return nextEncode
        }
        loader?.load(duringEncode: number, through: store)
        usleep(Self.encodeMicroseconds)
        _ = lock.withLock { encoding.remove(number) }
    }

    /// How much longer a slow encode takes.
    static let encodeMicroseconds: UInt32 = 2_000

    private func loadThroughStore(_ document: Int, _ iteration: Iteration, through store: PersistentDataStore) {
        pending.enter()
        store.loadData(
            forIdentifier: Self.identifier(document),
            transformer: { $0 },
            completion: { [self] result in
                switch result {
                case .loaded(let data): check(data, of: document, by: "a load", iteration)
                case .notFound: iteration.recordInconsistency("a load found no \(Self.identifier(document))")
                case .failed(let error) where Self.isEnvironmental(error):
                    iteration.recordError(error)
                case .failed(let error):
                    iteration.recordInconsistency("a load of \(Self.identifier(document)) failed: \(error)")
                }
                pending.leave()
            }
        )
    }

    /// Records a torn read when `data` is not a whole version of `document`.
    private func check(_ data: Data, of document: Int, by reader: String, _ iteration: Iteration) {
        let found = Payload(validating: data)
        guard found?.document != document else { return }
        let read = "\(reader) of \(Self.identifier(document)) read"
        let whole = Payload.headerLength + Self.bodyLength
        if let other = found {
            iteration.recordInconsistency("\(read) a whole version of \(Self.identifier(other.document))")
        } else if data.count == whole {
            // Every byte is there, yet the checksum is wrong: parts of two versions, interleaved.
            iteration.recordInconsistency(
                "\(read) a torn file (right length, mixed contents: \(data.count.formatted()) bytes, checksum wrong)"
            )
        } else {
            iteration.recordInconsistency(
                "\(read) a torn file (\(data.count.formatted()) of \(whole.formatted()) bytes)"
            )
        }
    }

    /// Counts a store as overtaken when its document's file, read once its store reported success,
    /// holds an older version: after this store's rename, only stores made later may replace the
    /// file, so an older version there was renamed in after it. The first one, in words, says which
    /// store each version went through: two calls on one instance, whose writes overlapped
    /// (`no-barrier`), or two stores whose barriers each order only their own queue (`two-stores`).
    private func checkNotOvertaken(_ version: Int, of document: Int, through store: PersistentDataStore) {
        let data = try? DataFile.contents(of: self.store.path(of: Self.identifier(document)))
        guard let payload = data.flatMap({ Payload(validating: $0) }), payload.version < version else { return }
        lock.withLock {
            overtaken += 1
            guard firstOvertaken == nil else { return }
            let newer = takenThrough[document][version]
            let older = takenThrough[document][payload.version]
            var through = ("", "")
            if stores.count == 1 {
                through.1 =
                    ", renamed in later by another storeData call on the same PersistentDataStore instance:"
                    + " the two writes overlapped"
            } else if let newer, let older {
                through = (" through \(Self.storeName(newer))", " through \(Self.storeName(older))")
                through.1 += newer == older ? "" : ": each barrier orders only its own queue"
            }
            firstOvertaken =
                "\(Self.identifier(document)): the store of v\(version)\(through.0) reported success, "
                + "then its file held the older v\(payload.version)\(through.1)"
        }
    }

    /// `document` between two steps (`racelab play 5`, `explore 5`'s failing schedule): the version
    /// its file holds and the versions its stores encoded so far, in the order they took them. Both
    /// change only in the explorer's steps (an encode runs in a store's work item, a file changes
    /// at a write or a rename), not in the completions, whose timing it does not control.
    func describe(document: Int) -> String {
        let taken = lock.withLock { nextVersion[document] } - 1
        let file: String
        switch try? DataFile.contents(of: store.path(of: Self.identifier(document))) {
        case .none: file = "is missing"
        case .some(let data):
            let whole = Payload.headerLength + Self.bodyLength
            file =
                Payload(validating: data).map { "holds v\($0.version)" }
                ?? "is torn (\(data.count.formatted()) of \(whole.formatted()) bytes)"
        }
        let encoded = taken == 0 ? "none yet" : (1...taken).map { "v\($0)" }.joined(separator: " then ")
        let staging = describeStaging(of: document)
        return "\(Self.identifier(document))'s file \(file)\(staging) · stores encoded \(encoded)"
    }

    /// The staging files of `document` by name, so that a schedule shows whether two stores write
    /// one staging file (`, staging file document-0`) or files of their own (`, 2 staging files
    /// document-0.<UUID>`); empty when there is none. A unique name's UUID is shown as `<UUID>`: it
    /// differs from run to run, and a replay must print the same text. Names only, not sizes, so the
    /// state changes when a file comes or goes, not at every chunk.
    private func describeStaging(of document: Int) -> String {
        let name = Self.identifier(document)
        let names = ((try? store.stagingDirectory.names()) ?? []).filter { $0 == name || $0.hasPrefix(name + ".") }
        guard !names.isEmpty else { return "" }
        let shown = Set(names.map { $0 == name ? name : name + ".<UUID>" }).sorted().joined(separator: ", ")
        return names.count == 1 ? ", staging file \(shown)" : ", \(names.count) staging files \(shown)"
    }

    private func takeVersion(of document: Int, through store: PersistentDataStore) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let version = nextVersion[document]
        nextVersion[document] += 1
        takenThrough[document][version] = stores.firstIndex { $0 === store }
        return version
    }

    private func record(_ result: StoreResult, version: Int?, of document: Int) {
        lock.lock()
        defer { lock.unlock() }
        switch result {
        case .success:
            if let version { succeeded[document].append(version) }
        case .noData:
            failedStores += 1
        case .failed(let error) where Self.isEnvironmental(error):
            environmentFailures += 1
            if firstEnvironmentFailure == nil { firstEnvironmentFailure = Self.brief(error) }
        case .failed(let error):
            failedStores += 1
            if firstFailure == nil { firstFailure = Self.brief(error) }
        }
    }
}

extension DocumentTrial {
    /// The errno values that say the surroundings failed, not the code under test: no space or
    /// quota, a read-only file system, no permission, no descriptors or memory left, an I/O error.
    /// A race between writers shows as other failures (a staging file another writer renamed away:
    /// `ENOENT`), which stay evidence.
    static let environmentalErrors: Set<Int32> = [ENOSPC, EDQUOT, EROFS, EACCES, EPERM, EMFILE, ENFILE, ENOMEM, EIO]

    /// Whether `error` comes from the store's surroundings rather than from the race.
    static func isEnvironmental(_ error: any Error) -> Bool {
        if case StoreError.system(_, _, let code) = error { return environmentalErrors.contains(code) }
        return posixErrorCode(of: error).map(environmentalErrors.contains) ?? false
    }

    /// An error in a few words for the report: a system call and its errno, without the long path.
    static func brief(_ error: any Error) -> String {
        if case StoreError.system(let operation, _, let code) = error {
            return "\(operation): \(String(cString: strerror(code)))"
        }
        return "\(error)"
    }
}

/// The version a store's provider chose, handed to its completion.
private final class VersionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int?

    func set(_ version: Int) {
        lock.lock()
        value = version
        lock.unlock()
    }

    func get() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}

// The harness for exercise 1 (do not edit): compiled next to the participant's Storage.swift.
import ExerciseSupport
import Foundation
import RaceLab
import Synchronization

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("1 · Storage keeps every key under concurrent stores")

// Functional: the store still stores (an empty `store` never loses a key, and must not pass).
let single = Storage()
check.checking("5 distinct keys stored one after another are counted as 5")
let payloads = (0..<5).map { Data("value-\($0)".utf8) }
for (index, payload) in payloads.enumerated() { single.store(payload, forIdentifier: "key-\(index)") }
single.store(Data("new".utf8), forIdentifier: "key-0")
check.require(
    single.numberOfItems == 5,
    "5 distinct keys stored one after another are counted as 5",
    evidence: "numberOfItems is \(single.numberOfItems)"
)
// Keys stored one after another but not counted: why, when the code tells (reads that do not wait
// for the stores queued before them). Announced whenever the code reads so, counted or not (whether
// the stores had run by the count is timing): such reads race with the stores, and a crash in the
// run from many threads, or its lost keys, must keep this kind for the hint.
let readsDoNotWait = ReadsDoNotWait.line(in: participantCode("Storage.swift"))
if let line = readsDoNotWait {
    if check.hasFailed {
        check.diagnose("reads-do-not-wait", line)
        check.announceReading("reads-do-not-wait")
    } else {
        check.announceReading("reads-do-not-wait", line)
    }
}
check.require(
    single.data(forIdentifier: "key-3") == payloads[3],
    "data(forIdentifier:) returns what was stored",
    evidence: "key-3 holds \(String(describing: single.data(forIdentifier: "key-3")))"
)
check.require(
    single.data(forIdentifier: "key-0") == Data("new".utf8),
    "storing under an existing key replaces its value"
)
check.require(single.data(forIdentifier: "missing") == nil, "a key never stored has no data")

// What the code does, for the hint: read from the code, since the run sees the same lost keys
// whichever lock the getter and the setter take. Announced before the run from many threads, so
// that a crash in it (the race, too) gets the same hint as a run that loses keys.
let reading = CodeReading.of(participantCode("Storage.swift"))
if let reading { check.announceReading(reading.kind, reading.line) }

// A getter that reads the stored dictionary taking nothing (no queue, no lock) reads it while stores
// write it: a data race, which the run below shows only by luck (a crash, a wrong read, or nothing).
// So the code is read first, and such code is not run from many threads.
let unsyncedRead: Bool = {
    guard !check.hasFailed, let line = UnsyncedRead.line(in: participantCode("Storage.swift")) else { return false }
    check.require(
        false,
        "reads of the dictionary wait for the stores (the queue or lock they take)",
        kind: "unsynced-read"
    )
    check.diagnose("unsynced-read", line)
    check.note("the concurrent run is left out: that race crashes, reads a torn dictionary or passes by luck")
    return true
}()

// Concurrent: every iteration stores a distinct key; afterwards all of them must be there. Every
// fourth iteration also reads (both getters) while the other threads store, as callers do: a read
// that takes no lock then races with the stores (ThreadSanitizer reports it, or the run crashes).
// What it reads is summed into `readsDuringStores`, so that no read is optimized away.
let readsDuringStores = Atomic<Int>(0)
let variant = ExerciseCheck.variant(
    of: "Storage",
    makeState: { Storage() },
    operation: { storage, iteration in
        storage.store(Data([UInt8(truncatingIfNeeded: iteration.index)]), forIdentifier: "item-\(iteration.index)")
        if iteration.index % 4 == 3 {
            let read = (storage.data(forIdentifier: "item-\(iteration.index - 1)")?.count ?? 0) + storage.numberOfItems
            readsDuringStores.wrappingAdd(read, ordering: .relaxed)
        }
    },
    check: { storage, trial in
        var observation = Observation.kept(storage.numberOfItems, of: trial.iterations, unit: "keys")
        let missing = (0..<trial.iterations).filter { storage.data(forIdentifier: "item-\($0)") == nil }.count
        if missing > 0 && observation.lostWrites == 0 { observation.inconsistencies += missing }
        return observation
    }
)
if !unsyncedRead {
    check.stress(
        variant,
        workload: Workload(trials: 30, iterations: 1_000),
        requirement: "concurrent stores of 1,000 distinct keys keep all 1,000 (every trial)"
    )
}
if check.saw("lost-writes"), let reading {
    check.diagnose(reading.kind, reading.line)
} else if check.saw("lost-writes"), !check.saw("reads-do-not-wait"), let line = readsDoNotWait {
    check.diagnose("reads-do-not-wait", line)
}
check.finish()

/// The mistake the participant's code reads as, for the lost keys (or a crash) it explains.
enum CodeReading {
    static func of(_ code: String) -> (kind: String, line: String)? {
        // Atomic accessors first: a lock of the participant's around both is that mistake even when
        // the setter inside it waits for its barrier.
        if AtomicProperty.found(in: code) {
            return (
                "atomic-property",
                "read from your code: `contents` has a getter and a setter that are each atomic on their "
                    + "own (a lock, a barrier or a serial queue), so `contents[id] = data` still reads in "
                    + "one step and writes in another (`atomic-property`)"
            )
        } else if SetterLock.found(in: code) {
            return (
                "setter-lock",
                "read from your code: the setter takes a lock and the getter does not, so "
                    + "`contents[id] = data` reads the dictionary outside that lock and writes its copy "
                    + "back under it: the lock covers the write, not the read the write depends on "
                    + "(`setter-lock`)"
            )
        } else if SyncSetter.found(in: code) {
            return (
                "sync-setter",
                "read from your code: the setter waits for its barrier (`sync(flags: .barrier)`), which "
                    + "makes each write finish before the setter returns, but `contents[id] = data` still "
                    + "reads the dictionary "
                    + "in one call and writes it back in another: the window is between the get and the "
                    + "set, not inside the set (`sync-setter`)"
            )
        }
        return nil
    }
}

/// A getter that reads `Storage`'s stored dictionary with no lock held: a read during a store's
/// write is a data race, whatever the run shows. Only `Storage`'s own stored `[String: Data]`
/// (not a wrapper's, not a computed property such as the starter's `contents`, not a local of the
/// getter) counts, and only a read in the getter's own statements: one inside a closure
/// (`queue.sync { … }`, a helper's `read { … }`) may run under a lock this reading cannot see, and a
/// getter whose own statements take a lock or wait for anything (`lock.lock()`, `wait()`) is never
/// blamed. So a read guarded in any way this reading can see is never blamed.
enum UnsyncedRead {
    static func line(in code: String) -> String? {
        // Storage's members, its methods' and nested types' bodies left out.
        let storage = BraceMatching.body(of: "class Storage", in: code).map(String.init) ?? code
        let members = BraceMatching.blocksEmptied(storage).filter { !$0.isWhitespace }
        let declared = members.matches(
            of: /var(\w+)(:(\[String:Data\]|Dictionary<String,Data>)[^{\w]|=\[String:Data\]\(\))/
        )
        // Stored dictionaries the code writes: reads of one that is never written race with nothing.
        let compact = storage.filter { !$0.isWhitespace }
        let names = Set(declared.map { String($0.1) }).filter { name in
            codeMatches(#"(^|\W)\#(name)(\[[^\]]*\])?=[^=]|\#(name)\.(updateValue|removeValue|merge)\("#, in: compact)
        }
        let getters = [("`data(forIdentifier:)`", /func\s+data\s*\(/), ("`numberOfItems`", /var\s+numberOfItems\b/)]
        var unguarded: [(getter: String, name: String)] = []
        for getter in getters {
            guard let start = storage.firstRange(of: getter.1),
                let open = storage[start.upperBound...].firstIndex(of: "{"),
                let body = BraceMatching.block(after: storage[storage.index(after: open)...])
            else { continue }
            let own = BraceMatching.ownStatements(body)
            let waits = /[Ll]ock|wait|[Ee]nter|acquire|[Ss]ync|barrier|[Ss]emaphore|[Aa]tomic|actor|await/
            guard own.firstMatch(of: waits) == nil,
                let name = names.sorted().first(where: { name in
                    !codeMatches(#"\b(let|var)\s+\#(name)\b|\bfor\s+\#(name)\b"#, in: body)
                        && codeMatches(#"(^|[^\w.])\#(name)\b|\bself\.\#(name)\b"#, in: own)
                })
            else { continue }
            unguarded.append((getter.0, name))
        }
        guard let first = unguarded.first else { return nil }
        return "read from your code: \(unguarded.map(\.getter).joined(separator: " and ")) "
            + (unguarded.count == 1 ? "reads" : "read")
            + " `\(first.name)` taking no queue and no lock while stores write it: a read during a write "
            + "is a data race on the dictionary (Swift does not define what it does: it can crash) "
            + "(`unsynced-read`)"
    }
}

/// Stores queued with `async` that a later read does not wait for: the reads take another queue
/// than the stores (a read waits only for the work queued before it on its own queue), or none.
/// Stores made one after another on one thread are then not there yet when the next read runs.
enum ReadsDoNotWait {
    static func line(in code: String) -> String? {
        let compact = code.filter { !$0.isWhitespace }
        let writers = queues(calling: ".async(", in: compact)
        guard !writers.isEmpty else { return nil }
        // The reads: the getter's, when `contents` has one, else every `sync` call but a barrier's.
        let readCode = Accessors.body("get", in: compact) ?? Substring(compact)
        let readers = queues(calling: ".sync{", in: readCode) + queues(calling: ".sync(execute:", in: readCode)
        let named = { (names: [String]) in names.map { "`\($0)`" }.joined(separator: " and ") }
        if readers.isEmpty {
            return "read from your code: your stores are queued with `async` on \(named(writers)) and your "
                + "reads take no queue, so your reads do not wait for your stores: those made just before "
                + "a read had not run yet when it ran (`reads-do-not-wait`)"
        }
        guard Set(readers).isDisjoint(with: writers) else { return nil }
        return "read from your code: your reads run on \(named(readers)), your stores are queued with "
            + "`async` on \(named(writers)): a read waits only for work queued on its own queue, so your "
            + "reads do not wait for your stores, and those made just before had not run yet "
            + "(`reads-do-not-wait`)"
    }

    /// The distinct names of the queues `call` is made on (`readQueue` for `readQueue.sync{`,
    /// `self.queue.async(` gives `queue`), in order.
    static func queues(calling call: String, in code: some StringProtocol) -> [String] {
        var names: [String] = []
        for range in code.ranges(of: call) {
            let before = code[..<range.lowerBound].reversed()
            let name = String(before.prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
            if !name.isEmpty && !names.contains(name) { names.append(name) }
        }
        return names
    }
}

/// The accessors of the computed `contents` as the participant's code has them (whitespace removed).
enum Accessors {
    /// The body of the first accessor opened by `keyword{` (`get`, `set`), up to its closing brace
    /// (to the end of the code when it is not closed).
    static func body(_ keyword: String, in compact: String) -> Substring? {
        guard let open = compact.range(of: keyword + "{") else { return nil }
        let rest = compact[open.upperBound...]
        return BraceMatching.block(after: rest) ?? rest
    }

    /// Whether a store goes through the computed property, `contents[...] = ...` (not `_contents`):
    /// it reads with the getter and writes with the setter.
    static func storeThroughProperty(in compact: String) -> Bool {
        compact.ranges(of: "contents[").contains { range in
            let before = range.lowerBound == compact.startIndex ? nil : compact[compact.index(before: range.lowerBound)]
            guard before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" }) ?? true,
                let close = compact[range.upperBound...].firstIndex(of: "]")
            else { return false }
            let after = compact[compact.index(after: close)...]
            return after.hasPrefix("=") && !after.hasPrefix("==")
        }
    }

    /// A lock the participant took: anything but the starter's queue calls.
    static func takesLock(_ body: Substring) -> Bool {
        ["lock", "Lock", "Mutex", "wait"].contains { body.contains($0) }
    }
}

/// A property made "atomic": a store still goes through the getter and then the setter, and each
/// of them is atomic on its own. Either both take a lock of the participant's (around the queue calls
/// or instead of them), or both go through the queue with writes that exclude every other access (a
/// barrier, or a serial queue), in accessors other than the starter's own pair on its concurrent
/// queue (a `queue.sync` read, a `queue.async(flags: .barrier)` write), which the first hints are
/// about, and other than a setter that waits for its barrier (`SyncSetter`, its own hint). The
/// starter's pair on a serial queue is this mistake: each access runs alone, the store is two.
enum AtomicProperty {
    static func found(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        guard let get = Accessors.body("get", in: compact), let set = Accessors.body("set", in: compact),
            Accessors.storeThroughProperty(in: compact)
        else { return false }
        if Accessors.takesLock(get) && Accessors.takesLock(set) { return true }
        let serial = !compact.contains(".concurrent")
        let queued = get.contains("sync") && set.contains("sync") && (serial || set.contains("flags:.barrier"))
        let startersPair = !serial && get.contains(".sync{") && set.contains(".async(flags:.barrier)")
        return queued && !startersPair && !SyncSetter.found(in: code)
    }
}

/// A lock around the setter alone: the setter takes a lock of the participant's, the getter none,
/// and stores still go through the computed property, so each store reads outside the lock and
/// writes under it. Checked after `AtomicProperty` (a getter on a serial queue, or behind a barrier,
/// is that mistake) and before `SyncSetter` (a setter that also waits for its barrier has a lock
/// to blame first).
enum SetterLock {
    static func found(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        guard let get = Accessors.body("get", in: compact), let set = Accessors.body("set", in: compact)
        else { return false }
        return Accessors.takesLock(set) && !Accessors.takesLock(get) && Accessors.storeThroughProperty(in: compact)
    }
}

/// The setter made synchronous: a computed property whose setter waits for its barrier
/// (`sync(flags: .barrier)`), with stores still going through it (`contents[id] = ...`).
enum SyncSetter {
    static func found(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        guard let set = Accessors.body("set", in: compact) else { return false }
        return set.contains(".sync(flags:.barrier)") && Accessors.storeThroughProperty(in: compact)
    }
}

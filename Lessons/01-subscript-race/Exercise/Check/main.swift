// The harness for exercise 1 (do not edit): compiled next to the participant's Storage.swift.
import ExerciseSupport
import Foundation
import RaceLab

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("1 · Storage keeps every key under concurrent stores")

// Functional: the store still stores (an empty `store` never loses a key, and must not pass).
let single = Storage()
let payloads = (0..<5).map { Data("value-\($0)".utf8) }
for (index, payload) in payloads.enumerated() { single.store(payload, forIdentifier: "key-\(index)") }
single.store(Data("new".utf8), forIdentifier: "key-0")
check.require(
    single.numberOfItems == 5,
    "5 distinct keys stored one after another are counted as 5",
    evidence: "numberOfItems is \(single.numberOfItems)"
)
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

// Concurrent: every iteration stores a distinct key; afterwards all of them must be there.
let variant = ExerciseCheck.variant(
    of: "Storage",
    makeState: { Storage() },
    operation: { storage, iteration in
        storage.store(Data([UInt8(truncatingIfNeeded: iteration.index)]), forIdentifier: "item-\(iteration.index)")
    },
    check: { storage, trial in
        var observation = Observation.kept(storage.numberOfItems, of: trial.iterations, unit: "keys")
        let missing = (0..<trial.iterations).filter { storage.data(forIdentifier: "item-\($0)") == nil }.count
        if missing > 0 && observation.lostWrites == 0 { observation.inconsistencies += missing }
        return observation
    }
)
check.stress(
    variant,
    workload: Workload(trials: 30, iterations: 1_000),
    requirement: "concurrent stores of 1,000 distinct keys keep all 1,000 (every trial)"
)
// What the code did, for the hint: read from the code, since the run sees the same lost keys
// whichever lock the getter and the setter take.
if check.saw("lost-writes") {
    let code = participantCode("Storage.swift")
    if SyncSetter.found(in: code) {
        check.diagnose(
            "sync-setter",
            "read from your code: the setter waits for its barrier (`sync(flags: .barrier)`), so each "
                + "write is done before the next, but `contents[id] = data` still reads the dictionary "
                + "in one call and writes it back in another: the window is between the get and the "
                + "set, not inside the set (`sync-setter`)"
        )
    } else if AtomicProperty.found(in: code) {
        check.diagnose(
            "atomic-property",
            "read from your code: `contents` has a getter and a setter that each take a lock, so "
                + "`contents[id] = data` still reads in one step and writes in another (`atomic-property`)"
        )
    }
}
check.finish()

/// A property made "atomic": a computed property whose getter and setter each take a lock (any
/// kind but the starter's own barrier on the setter, which the first hints are about).
enum AtomicProperty {
    static func found(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        guard let get = compact.range(of: "get{"), let set = compact.range(of: "set{") else { return false }
        let takesLock = { (body: Substring) in
            ["lock", "Lock", "sync", "Mutex", "wait"].contains { body.prefix(120).contains($0) }
        }
        let setter = compact[set.upperBound...]
        return takesLock(compact[get.upperBound...]) && takesLock(setter)
            && !setter.prefix(120).contains("flags:.barrier")
    }
}

/// The setter made synchronous: a computed property whose setter waits for its barrier
/// (`sync(flags: .barrier)`), with stores still going through it (`contents[id] = ...`).
enum SyncSetter {
    static func found(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        guard let set = compact.range(of: "set{") else { return false }
        let setter = compact[set.upperBound...].prefix(120)
        // `contents[` not preceded by `_`: a store through the computed property.
        let throughProperty = compact.ranges(of: "contents[").contains { range in
            range.lowerBound == compact.startIndex || compact[compact.index(before: range.lowerBound)] != "_"
        }
        return setter.contains(".sync(flags:.barrier)") && throughProperty && compact.contains("]=")
    }
}

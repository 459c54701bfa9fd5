// The harness for exercise 4 (do not edit): compiled next to the participant's FileCounter.swift.
import ExerciseSupport
import Foundation
import RaceLab

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("4 · FileCounter keeps every increment of a shared file")

/// A fresh folder per use, removed afterwards: the counter file lives in it.
func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("racelab-exercise-4-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
func onDisk(_ url: URL) -> Int? {
    (try? String(contentsOf: url, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}

// Functional: increments really persist to the file (an `increment` that does nothing never loses
// one, and must not pass), and another instance of the same URL sees them.
do {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("counter.txt")
    let first = FileCounter(url: url)
    check.require((try? first.value()) == 0, "a counter whose file does not exist yet is 0")
    // Calls that run before the `require` that judges them name it first, for the checker's
    // message if one never returns.
    check.checking("three increments make 3")
    for _ in 0..<3 { try first.increment() }
    check.require(
        (try? first.value()) == 3,
        "three increments make 3",
        evidence: "value() is \(String(describing: try? first.value()))"
    )
    check.require(
        onDisk(url) == 3,
        "the file holds the count (a decimal number)",
        evidence: "the file holds \(String(describing: try? String(contentsOf: url, encoding: .utf8)))"
    )
    let second = FileCounter(url: url)
    check.checking("another instance of the same URL continues from the file")
    try second.increment()
    check.require(
        (try? first.value()) == 4,
        "another instance of the same URL continues from the file",
        evidence: "after 3 + 1 increments value() is \(String(describing: try? first.value()))"
    )
    let other = FileCounter(url: folder.appendingPathComponent("other.txt"))
    check.checking("two files count separately")
    try other.increment()
    check.require((try? other.value()) == 1 && onDisk(url) == 4, "two files count separately")
} catch {
    check.require(false, "the functional checks run without errors", evidence: "\(error)")
}

// State every FileCounter shares (a map from each file to its lock) is itself shared mutable
// state: two increments of a new file that use an unguarded map at once can each store a lock
// (each then holds its own) or corrupt the dictionary. The run below gives that race one chance
// per trial (its new file): it passes the code, or crashes the check, by luck. So the code is read
// (`SharedStateReading`) first, and code that uses such state outside any lock is not run.
private let unguardedSharedState: Bool = {
    let code = participantCode("FileCounter.swift")
    guard let use = SharedStateReading.unguardedUse(in: code) else {
        let shared = SharedStateReading.changedVariables(in: code).map { "`\($0)`" }.joined(separator: ", ")
        if !shared.isEmpty {
            check.require(
                true,
                "state every FileCounter shares (\(shared)) is used only under a lock (read from your code)"
            )
        }
        return false
    }
    check.require(false, "state every FileCounter shares is used only under a lock of its own", kind: "unguarded-map")
    check.diagnose(
        "unguarded-map",
        "read from your code: `\(use.name)`, \(use.declaration) every FileCounter shares, is "
            + "\(use.action) in \(use.function) outside any lock: "
            + (use.action == "read"
                // Changes under a lock do not make a read outside it safe: the read races them.
                ? "another increment may be changing it at that moment, a data race on the "
                    + (use.isMap
                        ? "dictionary (Swift does not define what a read during a change does: it can crash)"
                        : "variable")
                : use.isMap
                    ? "two increments of a new file can both find no lock and each store one (then "
                        + "each holds a lock of its own), or change the dictionary at once and corrupt it"
                    : "two increments can change it at once, or read it while another changes it")
            + " (`unguarded-map`)"
    )
    check.note("the concurrent run is left out: that race loses increments, crashes or passes by luck")
    return true
}()

// Concurrent: every iteration increments the trial's file once, through a NEW instance (as code
// that makes a storage wherever it needs one); afterwards the file must hold the number of iterations.
struct Trial: Sendable {
    let folder: URL
    var url: URL { folder.appendingPathComponent("counter.txt") }
}
let variant = ExerciseCheck.variant(
    of: "FileCounter",
    makeState: { Trial(folder: try makeFolder()) },
    operation: { trial, _ in
        // Watches the participant's `Race.window` (between the read and the write), then lets the
        // runner's noise pause there as usual.
        try Race.$hook.withValue(OverlapWatch(noise: Race.hook)) {
            try FileCounter(url: trial.url).increment()
        }
    },
    check: { trial, info in .kept(onDisk(trial.url) ?? 0, of: info.iterations, unit: "increments") },
    tearDown: { trial in try? FileManager.default.removeItem(at: trial.folder) }
)
let workload = Workload(trials: 5, iterations: 200)
if !unguardedSharedState {
    check.stress(
        variant,
        workload: workload,
        requirement: "200 concurrent increments of one file end at exactly 200 (every trial)",
        // The lost increments of all trials together, out of all the increments run.
        lostOutOf: { trials in (trials * workload.iterations, "increments lost in all trials together") }
    )
}
// Concurrent again, through ONE FileCounter that every thread shares (as code that keeps one
// counter and calls it from many threads, the article's test). A lock whose owner is the instance
// (a lock file opened once, in `init`: one open file description) keeps separate instances apart
// and still lets the threads of one instance in together: only this run shows it.
struct SharedTrial: @unchecked Sendable {
    let folder: URL
    let counter: FileCounter
    var url: URL { folder.appendingPathComponent("counter.txt") }
}
var sharedInstanceFailed = false
if !unguardedSharedState, !check.hasFailed {
    let shared = ExerciseCheck.variant(
        of: "FileCounter",
        makeState: { () throws -> SharedTrial in
            let folder = try makeFolder()
            return SharedTrial(folder: folder, counter: FileCounter(url: folder.appendingPathComponent("counter.txt")))
        },
        operation: { trial, _ in
            try Race.$hook.withValue(OverlapWatch(noise: Race.hook)) { try trial.counter.increment() }
        },
        check: { trial, info in .kept(onDisk(trial.url) ?? 0, of: info.iterations, unit: "increments") },
        tearDown: { trial in try? FileManager.default.removeItem(at: trial.folder) }
    )
    check.stress(
        shared,
        workload: workload,
        requirement: "200 concurrent increments through one shared FileCounter end at exactly 200 (every trial)",
        lostOutOf: { trials in (trials * workload.iterations, "increments lost in all trials together") }
    )
    if check.hasFailed {
        sharedInstanceFailed = true
        // The lock file a FileCounter keeps, if it keeps one (read from a fresh instance).
        let folder = try? makeFolder()
        let stored = folder.flatMap { folder in
            Mirror(reflecting: FileCounter(url: folder.appendingPathComponent("counter.txt")))
                .children.first { String(describing: type(of: $0.value)) == "RaceLockFile" }?.label
        }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        check.diagnose(
            "shared-owner",
            "seen in the run: increments through separate FileCounters kept each other out, "
                + "through one shared FileCounter they did not"
                + (stored.map { ": the `\($0)` it stores is one open file description, one owner for every thread" }
                    ?? "")
                + " (`shared-owner`)"
        )
    }
}
// What the run saw, for the hint: which lock let two increments in together.
if check.hasFailed, !unguardedSharedState, !sharedInstanceFailed, let folder = try? makeFolder() {
    defer { try? FileManager.default.removeItem(at: folder) }
    let counter = FileCounter(url: folder.appendingPathComponent("counter.txt"))
    let increments = workload.trials * workload.iterations
    if let overlap =
        OverlapWatch.diagnosis(of: counter, increments: increments)
        ?? (check.saw("lost-writes") ? OverlapWatch.noOverlap(increments: increments) : nil)
    {
        check.diagnose(overlap.kind, "\(overlap.line) (`\(overlap.kind)`)")
        // A lock made in each call, or stored in each instance, taken beside the record lock:
        // neither keeps another increment out, and a line on the record lock alone would leave
        // the participant's own lock looking right.
        if overlap.kind == "process-owner",
            let also = OverlapWatch.localLockToo() ?? OverlapWatch.instanceLockToo(of: counter)
        {
            check.diagnose(also.kind, "\(also.line) (`\(also.kind)`)")
        }
    }
}
check.finish()

/// The race window mark as a meter: counts increments that reached it while another increment
/// was paused at it, so that both were between their read and their write at once.
private final class OverlapWatch: RaceWindowHook, @unchecked Sendable {
    let noise: (any RaceWindowHook)?

    init(noise: (any RaceWindowHook)?) {
        self.noise = noise
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var inside = 0
    nonisolated(unsafe) private static var overlaps = 0
    nonisolated(unsafe) private static var reached = 0

    func windowReached(_ name: StaticString) {
        Self.lock.withLock {
            Self.reached += 1
            if Self.inside > 0 { Self.overlaps += 1 }
            Self.inside += 1
        }
        noise?.windowReached(name)
        Self.lock.withLock { Self.inside -= 1 }
    }

    func stepReached(_ name: StaticString) {
        noise?.stepReached(name)
    }

    /// The kind of mistake an overlap points to, and one line saying what was seen; nil when no two
    /// increments were ever at the window together (the lost increments have another cause).
    ///
    /// The lock is read from the code: a lock stored in the instance (a new `FileCounter` per
    /// increment has a new one), else the `RaceLockFile` call the file makes. The call is matched in
    /// the source because the run cannot tell the two kernel locks apart: outside the explorer a
    /// `RaceLockFile` reports nothing to the race hooks. `calls(_:in:)` ignores comments and spacing.
    static func diagnosis(of counter: FileCounter, increments: Int) -> (kind: String, line: String)? {
        let count = lock.withLock { overlaps }
        guard count > 0 else { return nil }
        // Only overlaps seen at the mark are counted, so the count can be below the lost count
        // above: the line says what it counts, not how many overlapped in all.
        let overlapped =
            "\(count.formatted()) of the \(increments.formatted()) increments reached `Race.window` "
            + "while another was paused there, between its read and its save (a save of a stale "
            + "count undoes every increment saved since its read: one overlap can lose many)"
        let code = participantCode("FileCounter.swift")
        // A record lock taken beside a lock stored in the instance: the record lock's line first
        // (the fix that passes is its), then `instanceLockToo(of:)`'s on the stored one.
        let recordLock = calls("lockRecord", in: code) || directRecordLock(in: code) != nil
        if let stored = storedLock(of: counter), !recordLock {
            return (
                "instance-lock",
                "\(overlapped), each holding the lock stored in its own FileCounter "
                    + "(`\(stored.name)`): \(stored.made), so it keeps no other increment out"
            )
        }
        if calls("lockRecord", in: code) {
            return (
                "process-owner",
                "\(overlapped), each holding `lockRecord`'s lock: two threads held that lock "
                    + "at the same time"
            )
        }
        // The same POSIX record lock taken without `RaceLockFile`: its owner is the process too.
        if let call = directRecordLock(in: code) {
            return (
                "process-owner",
                "\(overlapped), each holding the record lock that `\(call)` takes (read from your code): "
                    + "two threads held that lock at the same time"
            )
        }
        if let made = localLock(in: incrementBody(in: code)) {
            return (
                "local-lock",
                "\(overlapped), each holding the `\(made)` its own call of `increment()` made (read "
                    + "from your code): no other increment ever takes that one, so it keeps none out"
            )
        }
        if locksTwice(in: code) {
            return (
                "overlap",
                "\(overlapped): `increment()` takes its lock more than once, so another "
                    + "increment can read or write between this one's read and its write"
            )
        }
        if locksCounterFile() {
            return (
                "renamed-file",
                "\(overlapped), each holding a lock on the counter file itself: every save renames "
                    + "a new file over it, so an increment that opens it after a save locks the new "
                    + "file while another still holds the old file's lock"
            )
        }
        if calls("lockDescription", in: code) {
            return (
                "shared-owner",
                "\(overlapped), each holding `lockDescription`'s lock: it did not keep "
                    + "the other out, so both asked as one owner (one open file description)"
            )
        }
        return mentionsALock(code)
            ? (
                "overlap",
                // Neither which lock nor where was read from the code: the line says what the run saw.
                "\(overlapped): one increment read while another had read and not "
                    + "yet written, so the code's lock did not keep it out (it does not cover the whole "
                    + "read-modify-write, other increments do not take the same lock, or every "
                    + "increment is the same owner of it: hint 1)"
            )
            : nil
    }

    /// The lock `counter` stores, by the name the code gives it, and why each FileCounter has its
    /// own; nil when it stores none. A stored `RaceLockFile` is the lock file, not a lock of its
    /// own, when the code takes a record lock on it: the caller reads that as the record lock.
    static func storedLock(of counter: FileCounter) -> (name: String, made: String, isLockFile: Bool)? {
        let lockTypes = [
            "NSLock", "NSRecursiveLock", "NSCondition", "Mutex", "DispatchQueue", "DispatchSemaphore",
            "RaceLock", "RaceQueue", "RaceLockFile", "pthread_mutex_t", "os_unfair_lock",
        ]
        // A queue's dynamic type on Darwin is `OS_dispatch_queue_serial` (or `_concurrent`).
        let stored = Mirror(reflecting: counter).children.first { child in
            let type = String(describing: Swift.type(of: child.value))
            return type.hasPrefix("OS_dispatch_queue") || lockTypes.contains { type == $0 || type.hasPrefix($0 + "<") }
        }
        guard let stored else { return nil }
        // `DispatchQueue(label:)` makes a new queue at every call, whatever the label says.
        let made =
            stored.value is DispatchQueue
            ? "each `DispatchQueue(label:)` call makes a new queue, one per FileCounter"
            : "a new FileCounter has a new lock"
        return (stored.label ?? "a lock", made, stored.value is RaceLockFile)
    }

    /// The second reading for code that takes a record lock and also a lock stored in the instance
    /// (`private let lock = NSLock()`): nil when it stores none, or stores only the lock file.
    static func instanceLockToo(of counter: FileCounter) -> (kind: String, line: String)? {
        guard let stored = storedLock(of: counter), !stored.isLockFile else { return nil }
        return (
            "instance-lock",
            "and each held the lock stored in its own FileCounter (`\(stored.name)`): "
                + "\(stored.made), so that lock keeps no other increment out either"
        )
    }

    /// The second reading for code that takes `lockRecord`'s lock and also a lock made in its own
    /// call of `increment()` (`let lock = NSLock()`, then `lock.lock()`): nil when it makes none.
    static func localLockToo() -> (kind: String, line: String)? {
        localLock(in: incrementBody(in: participantCode("FileCounter.swift"))).map { made in
            (
                "local-lock",
                "and each held the `\(made)` its own call of `increment()` made (read from your code): "
                    + "no other increment ever takes that one, so it keeps none out either"
            )
        }
    }

    /// For lost increments when no two were ever at the window together: the window is locked and
    /// another step is not. Read from the code: a `read()` before `increment()`'s first lock call;
    /// else the line names no step. Nil when no increment reached the window (nothing was watched).
    static func noOverlap(increments: Int) -> (kind: String, line: String)? {
        let (count, watched) = lock.withLock { (overlaps, reached) }
        guard count == 0, watched > 0 else { return nil }
        let none =
            "none of the \(increments.formatted()) increments reached `Race.window` while another "
            + "was paused there, and increments were still lost"
        let body = incrementBody(in: participantCode("FileCounter.swift"))
        let firstLock = lockCalls(in: body).first
        if let read = firstCall("read", in: body), let firstLock, read < firstLock {
            return (
                "read-outside",
                "\(none): `increment()` reads the counter before it takes its lock, so two "
                    + "increments can read the same count and both save it plus one"
            )
        }
        return mentionsALock(body)
            ? ("read-outside", "\(none): look for a step of the read-modify-write outside the lock")
            : nil
    }

    /// The text of `increment()` in `code`, up to the next `func` (empty when there is none).
    static func incrementBody(in code: String) -> String {
        guard let start = code.range(of: "func increment") else { return "" }
        let rest = code[start.upperBound...]
        return rest.range(of: "func ").map { String(rest[..<$0.lowerBound]) } ?? String(rest)
    }

    /// Whether `code` names anything that locks (a lock, a queue's `sync`, a mutex, a semaphore),
    /// however it is spelled: a guess that the code meant to lock, not that it does.
    static func mentionsALock(_ code: String) -> Bool {
        ["lock", "Lock", "sync", "Mutex", "Semaphore"].contains { code.contains($0) }
    }

    /// Where `code` first names the method `name` as a whole word (see `calls(_:in:)`).
    static func firstCall(_ name: String, in code: String) -> String.Index? {
        callRanges(name, in: code).first?.lowerBound
    }

    /// Whether `increment()` holds a lock on the counter file itself: one increment of a fresh
    /// counter, stopped at its `Race.window`, while the check asks (without waiting, through an
    /// `open()` of its own) whether another open file description locks that file. The lock is read
    /// from the kernel, not the code, whichever call took it.
    static func locksCounterFile() -> Bool {
        guard let folder = try? makeFolder() else { return false }
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("counter.txt")
        // The first increment creates the file, so the probed one opens an existing file.
        try? FileCounter(url: url).increment()
        let probe = CounterFileProbe(path: url.path)
        try? Race.$hook.withValue(probe) { try FileCounter(url: url).increment() }
        return probe.sawLock
    }

    /// Whether `increment()` in `code` takes a lock more than once (around the read, then again
    /// around the write): the sequence is two critical sections, whichever lock it is.
    static func locksTwice(in code: String) -> Bool {
        lockCalls(in: incrementBody(in: code)).count > 1
    }

    /// Where `code` takes a lock: the calls that take one (`.lock()`, `.withLock`, `.sync`,
    /// `.wait(`, `RaceLockFile`'s `.lockRecord()` and `.lockDescription()`, `pthread_mutex_lock(`,
    /// a waiting record lock: `fcntl(fd, F_SETLKW, &lock)`, `lockf(fd, F_LOCK, 0)`), not the other
    /// uses of those words (a variable named `lock`, `Self.lock(for: url)`). `fcntl` with `F_SETLK`
    /// is left out: the same call also releases the lock (with `F_UNLCK`).
    static func lockCalls(in code: String) -> [String.Index] {
        let method = /\.\s*(?:(?:lock|lockRecord|lockDescription)\s*\(\s*\)|(?:withLock|sync)\s*[({]|wait\s*\()/
        let function = /(?:^|[^A-Za-z0-9_])(?:pthread_mutex_lock|os_unfair_lock_lock)\s*\(/
        let record = [recordLockCall("fcntl", "F_SETLKW(?:64)?"), recordLockCall("lockf", "F_T?LOCK")]
        let starts =
            code.matches(of: method).map(\.range.lowerBound)
            + code.matches(of: function).map(\.range.lowerBound)
            + record.flatMap { code.matches(of: $0).map(\.range.lowerBound) }
        return starts.sorted()
    }

    /// A call of the C function `name` with `argument` (a regex) among its arguments, as a whole
    /// word: `recordLockCall("fcntl", "F_SETLKW")` matches `fcntl(fd, F_SETLKW, &lock)`, not
    /// `fcntl(fd, F_OFD_SETLKW, &lock)` or `x.fcntl(`. Arguments may hold one level of parentheses.
    static func recordLockCall(_ name: String, _ argument: String) -> Regex<AnyRegexOutput> {
        try! Regex(#"(?:^|[^A-Za-z0-9_.])"# + name + #"\s*\((?:[^;{}()]|\([^;{}()]*\))*?\b"# + argument + #"\b"#)
    }

    /// The call that takes a POSIX record lock directly in `code`, the lock `lockRecord` takes
    /// (owned by the process): `fcntl(` with `F_SETLKW` or `F_SETLK` (not the open file
    /// description's `F_OFD_SETLKW`), or `lockf(` with `F_LOCK` or `F_TLOCK`; nil when there is none. `code` is without
    /// comments and strings, so the starter's comment naming `fcntl(F_SETLKW)` does not count.
    static func directRecordLock(in code: String) -> String? {
        if code.contains(recordLockCall("fcntl", "F_SETLKW(?:64)?")) { return "fcntl(F_SETLKW)" }
        if code.contains(recordLockCall("fcntl", "F_SETLK(?:64)?")) { return "fcntl(F_SETLK)" }
        if code.contains(recordLockCall("lockf", "F_T?LOCK")) { return "lockf(F_LOCK)" }
        return nil
    }

    /// The type of a lock that `body` (the text of `increment()`) makes and takes at every call, so
    /// that each increment holds a lock of its own (`NSLock`); nil when there is none. Two forms:
    /// a lock made and taken in one expression (`NSLock().withLock { }`), and a local constant made
    /// there whose every use is a method call on it, one of which takes it (`let lock = NSLock()`,
    /// then `lock.lock()`): a lock stored or returned anywhere may be shared, and is not counted.
    static func localLock(in body: String) -> String? {
        let types = "(NSLock|NSRecursiveLock|NSCondition|Mutex|DispatchSemaphore|DispatchQueue)"
        let made = #"\s*(?:<[^<>(){}]*>)?\s*\([^(){}]*\)"#
        let taken = #"\s*\.\s*(?:lock\s*\(\s*\)|withLock\s*[({]|sync\s*[({]|wait\s*\()"#
        let notIdentifier = "(?:^|[^A-Za-z0-9_.])"
        let pattern = { (text: String) in try! Regex(text).anchorsMatchLineEndings() }
        if let match = body.firstMatch(of: pattern(notIdentifier + types + made + taken)),
            let type = match.output[1].substring
        {
            return String(type)
        }
        let declaration = pattern(
            notIdentifier + #"(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?::[^=\n]*)?=\s*"# + types + made
        )
        for match in body.matches(of: declaration) {
            guard let name = match.output[1].substring, let type = match.output[2].substring else { continue }
            let after = String(body[match.range.upperBound...])
            // Every later use of the name is `name.` (a method call), and one of them takes it.
            // (`lock.lock()` names `lock` twice: the method after the dot is no use of the constant.)
            let uses = after.matches(of: pattern(notIdentifier + name + "(?![A-Za-z0-9_])")).count
            let calls = after.matches(of: pattern(notIdentifier + name + #"\s*\."#)).count
            let takes = after.contains(pattern(notIdentifier + name + taken))
            if uses > 0, uses == calls, takes { return String(type) }
        }
        return nil
    }

    /// How many times `code` names the method `name` (see `calls(_:in:)`).
    static func countCalls(_ name: String, in code: String) -> Int {
        callRanges(name, in: code).count
    }

    /// Where `code` names `name` as a whole word: not inside a longer identifier.
    static func callRanges(_ name: String, in code: String) -> [Range<String.Index>] {
        let identifier = { (character: Character) in character.isLetter || character.isNumber || character == "_" }
        return code.ranges(of: name).filter { range in
            !(range.lowerBound > code.startIndex && identifier(code[code.index(before: range.lowerBound)]))
                && !(range.upperBound < code.endIndex && identifier(code[range.upperBound]))
        }
    }

    /// Whether `code` uses the method `name`: the whole word (not `unlockRecord` for `lockRecord`),
    /// with any spacing around the dot (`lockFile . lockRecord ()`), as a call or a reference.
    static func calls(_ name: String, in code: String) -> Bool {
        countCalls(name, in: code) > 0
    }

}

/// At the race window, asks whether another open file description locks the file at `path`
/// (`descriptionLockHeld(onFileAt:)`). Used on one thread at a time.
private final class CounterFileProbe: RaceWindowHook, @unchecked Sendable {
    let path: String
    private(set) var sawLock = false

    init(path: String) {
        self.path = path
    }

    func windowReached(_ name: StaticString) {
        if descriptionLockHeld(onFileAt: path) { sawLock = true }
    }

    func stepReached(_ name: StaticString) {}
}

// Part of exercise 2's harness (do not edit): what a failing `Once` did, for the hint.
import ExerciseSupport
import Foundation

/// The mistake a failing run points to, as a kind for the checker's hint (`hints.md` names the
/// kinds each hint is for) and one line saying what was seen. The run tells most of it: whether a
/// second execution began while another was running or only after one finished, and whether calls
/// returned before the work had run. Which kind of lock the code takes is read from the code (the
/// run cannot see a lock), and the line says so.
enum Mistake {
    static func diagnose(
        overlapping: Int,
        afterAnother: Int,
        earlyReturns: Int,
        lateRuns: Int = 0,
        neverRan: Int = 0,
        trials: Int = 0,
        repeatedAlone: Int = 0
    ) -> (kind: String, line: String)? {
        // Work that ran in no trial: the functional FAIL lines say it; the run shows no mistake in
        // how the calls share the work.
        if trials > 0, neverRan == trials { return nil }
        let code = participantCode("Once.swift")
        // Later calls from one thread ran the work again: no race caused that, so no lock is to
        // blame (one held across the check and the set runs it again too, if `run` goes on past it).
        if repeatedAlone > 0 {
            let extra = count(repeatedAlone, "extra execution")
            let alone =
                "seen in the run: one thread's later calls ran the work again (\(extra)), with no other "
                + "thread running"
            if returnInClosure(in: code) {
                return (
                    "return-leaves-closure",
                    "\(alone); read from your code: a `return` inside a closure (`sync`, `withLock`) "
                        + "leaves the closure, not `run` (`return-leaves-closure`)"
                )
            }
            return (
                "runs-again-alone",
                "\(alone): the check lets a call through once the flag is set (`runs-again-alone`)"
            )
        }
        // Work that ran only after every call had returned: no call waited for it, not even the one
        // that queued it. No call lost a race; the work was handed off (a queue's `async`).
        if lateRuns > 0, overlapping + afterAnother == 0 {
            return (
                "returns-before-work",
                "seen in the run: in \(lateRuns.formatted()) of \(trials.formatted()) trials the work ran "
                    + "only after all ten calls had returned: each call hands it off and returns "
                    + "without waiting for it, the first one too (`returns-before-work`)"
            )
        }
        let locks = ["lock", "Lock", "sync", "Mutex", "Semaphore", "DispatchQueue"].contains { code.contains($0) }
        // Early returns alone. A check-and-set that is one step (a lock, an atomic exchange) ran the
        // work once and let the losers go: the `early-returns` kind, which the stress run already
        // names. A plain flag set before the work is two steps: the run only happened not to split
        // them (its window holds no mark, so a second execution is rare), and the code says so.
        guard overlapping + afterAnother > 0 else {
            guard earlyReturns > 0 else { return nil }
            if !locks, !atomicCheckAndSet(in: code) {
                return (
                    "flag-before-work",
                    "seen in the run: no second execution began, but calls returned before the work had run; "
                        + "read from your code: the flag is set before the work, and its check and its set "
                        + "are two steps no lock joins (`flag-before-work`)"
                )
            }
            return (
                "early-returns",
                "seen in the run: no second execution began; the calls that lost the race to the flag "
                    + "returned without waiting for the one that won (`early-returns`)"
            )
        }
        // Every execution after a trial's first began either while another ran or after one had
        // finished: the two counts add up to the duplicate executions on the FAIL line.
        let extra = count(overlapping + afterAnother, "extra execution")
        let began =
            "seen in the run: \(overlapping.formatted()) of the \(extra) began while another was running"
            + (afterAnother > 0 ? ", \(afterAnother.formatted()) after another had finished" : "")
        // A lock made inside `run` is a new one on every call: whichever way the run split the
        // executions, no call ever waited for another, and the code says why.
        if let made = lockMadePerCall(in: code) {
            return (
                "lock-per-call",
                "\(began): the check and the set are not one critical section; read from your code: "
                    + "`run` makes a new `\(made)` on every call, so each call has its own and no call "
                    + "ever waits for another (`lock-per-call`)"
            )
        }
        // A semaphore shared by every call that still lets more than one caller in: the lock is
        // held around the right code, but it does not exclude.
        if let semaphore = semaphoreAdmitsMany(in: code) {
            let reason =
                semaphore.signalledFirst
                ? "`run` signals its semaphore before it waits on it, so each call lets itself in and "
                    + "no call waits for another: a lock is a semaphore made with 1, waited on first"
                : "a semaphore made with value \(semaphore.value) lets \(semaphore.value) callers in at "
                    + "once: a lock is a semaphore made with 1"
            return (
                "semaphore-count",
                "\(began): the check and the set are not one critical section; read from your code: "
                    + "\(reason) (`semaphore-count`)"
            )
        }
        // A semaphore waited on with a timeout whose result is thrown away: after the timeout the
        // call went on without it (a loaded machine makes the wait time out).
        if let wait = waitTimeoutIgnored(in: code) {
            return (
                "semaphore-timeout",
                "\(began): the check and the set are not one critical section; read from your code: "
                    + "`run` throws away what `\(wait)` returns, so when the wait times out it goes on "
                    + "without the lock (`semaphore-timeout`)"
            )
        }
        if overlapping == 0, locks {
            return (
                "lock-around-act",
                "seen in the run: \(count(afterAnother, "extra execution")) began after another had "
                    + "finished, never while one ran: your lock makes the work wait its turn, but the "
                    + "check happens before it (`lock-around-act`)"
            )
        }
        if readLock(in: code) {
            return (
                "read-lock",
                "\(began); read from your code: a concurrent queue's `sync` (or a read lock) is shared, "
                    + "it lets every caller in at once (`read-lock`)"
            )
        }
        // A second execution means the check and the set were not one critical section, whatever
        // locks the code takes: the run says that; the code only says where its lock misses them.
        if locks {
            let split = "\(began): the check and the set are not one critical section; read from your code:"
            if checkBeforeLock(in: code) {
                return (
                    "check-outside-lock",
                    "\(split) `run` checks the flag before it takes any lock (`check-outside-lock`)"
                )
            }
            if takesLockTwice(in: code) {
                return (
                    "lock-around-check",
                    "\(split) `run` takes a lock more than once, so it lets go of it between the check "
                        + "and the set (`lock-around-check`)"
                )
            }
            // Where the lock misses them is not in the code as read (a lock taken in a helper, a
            // lock of the participant's own type): the line says only what the run showed.
            return (
                "lock-around-check",
                "\(began): the check and the set were not one critical section under one lock, though "
                    + "your code takes a lock (`lock-around-check`)"
            )
        }
        if earlyReturns > 0 {
            return (
                "flag-before-work",
                "\(began), and calls returned before the work had run: the flag is set before the "
                    + "work, and the check and the set are still two steps (`flag-before-work`)"
            )
        }
        return (
            "flag-after-work",
            "\(began): a second call checked the flag before the first one set it, after its work "
                + "(`flag-after-work`)"
        )
    }

    /// A lock that admits many holders at once: a concurrent queue used without a barrier, or a
    /// pthread read lock without a write lock, in the whole file; or, whatever other methods do (the
    /// lesson's `ReadWriteLock` has a barrier in its `write`), a `run` whose one lock is such a
    /// shared one: a read (`read { … }`, `read(closure:)`, `pthread_rwlock_rdlock`) or a `sync`
    /// without the barrier flag on a concurrent queue, and no write lock or barrier of its own.
    static func readLock(in code: String) -> Bool {
        let compact = code.filter { !$0.isWhitespace }
        let concurrentQueue = compact.contains(".concurrent") && !compact.contains(".barrier")
        let readOnly = compact.contains("pthread_rwlock_rdlock") && !compact.contains("pthread_rwlock_wrlock")
        if concurrentQueue || readOnly { return true }
        guard let body = runBody(in: code)?.filter({ !$0.isWhitespace }) else { return false }
        let shared = compact.contains(".concurrent") || compact.contains("pthread_rwlock")
        let exclusive = /\.write\b|barrier|wrlock|\.lock\(\)|withLock|\.wait\(/
        let reads = body.matches(of: /\.read(\{|\(closure:)|\.sync(\{|\(execute:)|pthread_rwlock_rdlock\(/)
        return shared && reads.count == 1 && body.firstMatch(of: exclusive) == nil
    }

    /// Whether `run` checks (`guard`, `if`) before it takes any lock (`lock()`, `withLock`, `sync`,
    /// a semaphore's `wait`): its lock can then hold the set or the work, never the check. False
    /// when `run` takes no lock of its own (one taken in a helper it calls may hold the check).
    static func checkBeforeLock(in code: String) -> Bool {
        guard let body = runBody(in: code), let taken = body.firstRange(of: takesLock) else { return false }
        guard let check = body.firstRange(of: /\b(guard|if)\b/) else { return false }
        return check.lowerBound < taken.lowerBound
    }

    /// A plain flag that `run` reads before it takes its lock, outside any lock or queue: the fast
    /// path of double-checked locking (`if didExecute { return }`, then the lock and the check
    /// again). The run cannot fail it (the locked check still runs the work once), but the read
    /// races with the set under the lock: a data race on a plain `Bool`. The flag's name; nil when
    /// `run` takes no lock of its own, or reads no stored `var` of type `Bool` (declared with no
    /// attribute, such as a property wrapper's, on its line or the line above) before it: an
    /// atomic's load, or a wrapper's locked get, is no race.
    static func flagReadBeforeLock(in code: String) -> String? {
        guard let body = runBody(in: code), let taken = body.firstRange(of: takesLock) else { return nil }
        // A stored flag: a computed one (`var didExecute: Bool { lock.withLock { … } }`) may take a lock.
        let declaration = /^[^@\n]*?\bvar\s+(\w+)\s*(:\s*Bool\b(?!\s*\{)|=\s*(false|true)\b)/.anchorsMatchLineEndings()
        let flags = code.matches(of: declaration).filter { match in
            let above = code[..<match.range.lowerBound].split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }
            return above.map { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("@") } ?? true
        }
        let before = body[..<taken.lowerBound]
        return flags.map { String($0.1) }.first { flag in
            // A local of `run`'s own is no shared flag. `\b` is between a word and any other
            // character, so `self.didExecute` reads the flag too.
            guard let read = try? Regex("\\b\(flag)\\b"), let local = try? Regex("\\b(var|let)\\s+\(flag)\\b")
            else { return false }
            return before.firstMatch(of: read.wordBoundaryKind(.simple)) != nil
                && body.firstMatch(of: local.wordBoundaryKind(.simple)) == nil
        }
    }

    /// Whether `run` itself takes a lock (`lock()`, `withLock`, `sync`, a semaphore's `wait`) more
    /// than once: it lets go of it in between. False when it takes one once, or only in a helper.
    static func takesLockTwice(in code: String) -> Bool {
        guard let body = runBody(in: code) else { return false }
        return body.matches(of: takesLock).count > 1
    }

    /// The type of a lock (or a semaphore, or a queue used as one) that `run` makes in its own body
    /// (`let lock = NSLock()`): a new one on every call, which no other call ever waits for. Nil
    /// when `run` makes none (a stored lock, made once with the instance, is the fix).
    static func lockMadePerCall(in code: String) -> String? {
        guard let body = runBody(in: code) else { return nil }
        // `Type(`, or `Type<Value>(`, the way an initializer is called.
        let made =
            #/
            \b ( NSLock | NSRecursiveLock | NSCondition | NSConditionLock | DispatchSemaphore | DispatchQueue
                | Mutex | OSAllocatedUnfairLock ) \s* (<[^>(]*>)? \s* \(
            /#
        return body.firstMatch(of: made).map { String($0.1) }
    }

    /// A stored `DispatchSemaphore` that `run` waits on but that lets more than one caller in at
    /// once: made with a value above 1 (`DispatchSemaphore(value: 2)` lets two in), or signalled in
    /// `run` before `run` waits on it (each call adds one before it takes one, so every call gets
    /// in whatever the value; a `signal()` in a `defer` runs at the end, and does not count). The
    /// value it was made with, and whether `run` signals it first; nil for a semaphore made with 1
    /// and waited on first (a lock), or when `run` waits on no semaphore the code makes.
    static func semaphoreAdmitsMany(in code: String) -> (value: Int, signalledFirst: Bool)? {
        guard let body = runBody(in: code) else { return nil }
        let ownCode = body.replacing(/\bdefer\s*\{[^{}]*\}/, with: "")
        let made =
            #/
            \b(\w+) \s* (?: : \s* DispatchSemaphore \s* )? = \s* DispatchSemaphore \s* \( \s* value \s* : \s*
            (\d+) \s* \)
            /#
        for semaphore in code.matches(of: made) {
            let name = String(semaphore.1)
            guard let value = Int(semaphore.2),
                let waits = try? Regex("\\b\(name)\\s*\\.\\s*wait\\s*\\("),
                let signals = try? Regex("\\b\(name)\\s*\\.\\s*signal\\s*\\(")
            else { continue }
            guard let wait = ownCode.firstRange(of: waits) else { continue }
            if value > 1 { return (value, false) }
            if let signal = ownCode.firstRange(of: signals), signal.lowerBound < wait.lowerBound {
                return (value, true)
            }
        }
        return nil
    }

    /// A call that takes a lock: `lock()`, `withLock`, a queue's `sync`, a semaphore's `wait`, a
    /// pthread `…_lock(`.
    private static var takesLock: Regex<Substring> { /\.lock\(\)|withLock|\.sync\b|\.wait\(|_lock\(/ }

    /// The body of `run`, up to its closing brace (comments and strings are gone from `code`); nil
    /// when the code has no `func run`.
    /// A `wait(timeout:)` in `run` whose result is thrown away (`_ = semaphore.wait(timeout: …)`,
    /// or the call as a statement of its own): when the wait times out, `run` goes on without the
    /// lock, so a call whose work takes longer than the timeout lets the next one through the check.
    /// The call as written; nil when `run` has none, or tests its result (`== .success`, a `guard`).
    static func waitTimeoutIgnored(in code: String) -> String? {
        guard let body = runBody(in: code) else { return nil }
        let ignored = /(?m)^\s*(?:_\s*=\s*)?((?:self\.)?\w+\s*\.\s*wait\s*\(\s*timeout:[^\n]*\))\s*$/
        return body.firstMatch(of: ignored).map { String($0.1) }
    }

    private static func runBody(in code: String) -> Substring? {
        guard let start = code.firstRange(of: /func\s+run\b[^{]*\{/) else { return nil }
        var depth = 1
        let end =
            code[start.upperBound...].firstIndex { character in
                depth += character == "{" ? 1 : character == "}" ? -1 : 0
                return depth == 0
            } ?? code.endIndex
        return code[start.upperBound..<end]
    }

    /// A `return` inside a closure passed to a lock or a queue (`sync { guard … else { return } }`):
    /// it leaves the closure, and `run` goes on after it.
    static func returnInClosure(in code: String) -> Bool {
        code.contains(/(sync|withLock|withLockedValue|async)\b[^{\n]*\{[^}]*\breturn\b/)
    }

    /// A check and set of the flag in one atomic step: a compare-exchange or an exchange of an
    /// atomic, or a `lazy`/`static let` initializer (which Swift runs once, under its own lock).
    static func atomicCheckAndSet(in code: String) -> Bool {
        ["compareExchange", "exchange(", "Atomic", "atomic_", "OSAtomic", "pthread_once", "lazy var", "static let"]
            .contains { code.contains($0) }
    }

    private static func count(_ value: Int, _ noun: String) -> String {
        "\(value.formatted()) \(noun)\(value == 1 ? "" : "s")"
    }

}

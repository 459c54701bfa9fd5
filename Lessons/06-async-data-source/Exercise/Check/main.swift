// The harness for exercise 6 (do not edit): compiled next to the participant's Playlist.swift.
import ExerciseSupport
import Foundation
import RaceLab
import Synchronization

/// What a reader draws: the title in its header and the items as rows.
struct PlaylistSnapshot: Sendable, Equatable {
    let title: String
    let items: [Int]
}

/// Version `v`'s items: `v % 5 + 1` items, all equal to `v`, so that two versions' items differ.
func version(_ v: Int) -> [Int] { Array(repeating: v, count: v % 5 + 1) }

/// Version `v`'s title: random per run and `private`, so that no code but a writer's can know it;
/// a reader that makes a title up from the items shows one no writer stored.
private let titleSalt = UInt16.random(in: 1...UInt16.max)
private func title(_ v: Int) -> String {
    "Mix " + String(UInt16(truncatingIfNeeded: v) ^ titleSalt, radix: 16)
}

/// Writes version `v`: its title and its items, in one call.
func write(_ v: Int, to playlist: Playlist) { playlist.replace(title: title(v), items: version(v)) }

/// The version a title or an item list belongs to, if any (the check's own titles only).
private func versionOf(title: String) -> Int? {
    title.hasPrefix("Mix ")
        ? Int(title.dropFirst(4), radix: 16).flatMap { UInt16(exactly: $0) }.map { Int($0 ^ titleSalt) } : nil
}

/// Whether some `replace(title:items:)` stored `snapshot` whole (or it is the initial empty list).
func isPublished(_ snapshot: PlaylistSnapshot) -> Bool {
    guard let first = snapshot.items.first else { return snapshot.title.isEmpty }
    return snapshot.items == version(first) && snapshot.title == title(first)
}

/// Which versions a torn snapshot mixes, for the evidence: `the title of version 10, the items of
/// version 11`.
func describe(_ snapshot: PlaylistSnapshot) -> String {
    var titled = "title \"\(snapshot.title)\""
    if snapshot.title.isEmpty {
        titled = "no title"
    } else if let v = versionOf(title: snapshot.title) {
        titled = "the title of version \(v)"
    }
    var listed = "items \(snapshot.items)"
    if let first = snapshot.items.first, snapshot.items == version(first) {
        listed = "the items of version \(first)"
    } else if snapshot.items.isEmpty {
        listed = "no items"
    }
    return titled + ", " + listed
}

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("6 · Playlist snapshots are whole versions")

// Functional: a replace is visible, whole, in the next snapshot (an empty snapshot cannot pass),
// and the title is the writer's: the same items under a new title show the new title.
let playlist = Playlist()
check.require(playlist.snapshot() == PlaylistSnapshot(title: "", items: []), "a new playlist is empty")
let code = participantCode("Playlist.swift")
// A reader that takes no lock while the writer takes one: announced now, so that a crash of the run
// (the race corrupting memory) is explained by it too; a run that passes fails on it at the end.
let unlockedRead = UnlockedRead.line(in: code)
if let unlockedRead { check.announceReading("unsynced-read", unlockedRead) }
/// Whether the code read as a concurrent queue with no barrier (`AsyncStoreWithoutBarrier` or
/// `ConcurrentQueueWithoutBarrier`) was named, under the first FAIL it explains.
var noBarrierDiagnosed = false
/// Names a concurrent queue with no barrier under the FAIL just printed, once, if the code reads
/// so; `seen` is what the run showed. Said there, the check-exercise script does not say it again.
@MainActor func diagnoseNoBarrier(_ seen: String) {
    guard !noBarrierDiagnosed else { return }
    if AsyncStoreWithoutBarrier.found(in: code) {
        noBarrierDiagnosed = true
        check.diagnose(
            "no-barrier",
            "read from your code: replace(title:items:) hands its store to queue.async on a queue made "
                + "`.concurrent`, with no `.barrier`, and \(seen): a block sent after it, a queue.sync read "
                + "included, does not wait for it, and two such stores can run at once (`no-barrier`)"
        )
    } else if ConcurrentQueueWithoutBarrier.found(in: code) {
        noBarrierDiagnosed = true
        check.diagnose(
            "no-barrier",
            "read from your code: replace(title:items:) stores in a block on a queue made `.concurrent`, "
                + "with no `.barrier` and no lock, and \(seen): blocks on such a queue, queue.sync ones "
                + "too, run at once, stores beside stores and beside reads (`no-barrier`)"
        )
    }
}
for (title, requirement) in [
    ("Road trip", "a snapshot shows the last replace"),
    ("Focus", "a second replace replaces the first, title included"),
] {
    // Each names its requirement first, for the checker's message if the replace never returns.
    check.checking(requirement)
    playlist.replace(title: title, items: [7, 8, 9])
    // One snapshot, compared and shown: a second one could show what the first did not.
    let shown = playlist.snapshot()
    let expected = PlaylistSnapshot(title: title, items: [7, 8, 9])
    check.require(shown == expected, requirement, evidence: "got \(shown)")
    if shown != expected { diagnoseNoBarrier("a snapshot right after a replace did not show it") }
}

// Writers only, under a controlled schedule: writer A pauses at its first `Race.window` mark (in the
// starter, between its two sets) until writer B's whole replace(title:items:) has returned. A writer
// that sets the items and the title in two steps then leaves B's items with A's title, in every trial:
// the pause is a hand-over, not a sleep, so no luck is involved. Then one reader, bounded: a reader
// that loops until its looks agree may spin on such a state, which is a finding, not a hang.
// A pause that ends on its 1 s limit shows that the paused writer holds what the other needs (a mark
// inside the lock): the later trials pass that mark without pausing, which would only wait again.
check.enterConcurrentStage()
/// How long a writer or the reader may take before the check calls it stuck. Code that works takes
/// microseconds; a busy machine may delay a thread by far more than that, never by seconds, so a
/// correct Playlist is never judged stuck, and only code that blocks or spins waits this long.
let patience = 5

let writerTrials = 8
var writersRan = 0
var writersPaused = 0
/// Trials whose pause ended at its 1 s limit: the other writer's replace had not returned by then.
var pausesTimedOut = 0
/// The mark the first such pause was at: later trials pass it without pausing.
var heldOutAt: String?
/// Trials whose writer reached `heldOutAt` and went on without pausing.
var pausesSkipped = 0
var writersTorn = 0
var tornSample: PlaylistSnapshot?
/// Whether a trial left a mix of the two writers' versions: a snapshot of neither that is no earlier
/// version, or a reader that looped on the writers' state and returned once the checker wrote a whole one.
var writersMixed = false
var stuck: String?
let writersRequirement = "two writers at once leave one writer's whole version"
check.checking(writersRequirement)
writers: for trial in 0..<writerTrials {
    // Consecutive versions differ in title, items and length: a mix of the two never looks whole.
    let (outcome, pause) = writersOnlyTrial(first: 10 + 2 * trial, second: 11 + 2 * trial, skipping: heldOutAt)
    writersRan += 1
    switch pause {
    case .none: break
    case .handedOver: writersPaused += 1
    case .timedOut(let mark):
        writersPaused += 1
        pausesTimedOut += 1
        heldOutAt = heldOutAt ?? mark
    case .skipped: pausesSkipped += 1
    }
    switch outcome {
    case .whole:
        break
    case .torn(let snapshot):
        writersTorn += 1
        tornSample = tornSample ?? snapshot
        writersMixed = writersMixed || !isPublished(snapshot)
    case .readerSpun(let returned):
        writersTorn += 1
        writersMixed = writersMixed || returned
        stuck =
            "snapshot() had not returned \(patience) s after the writers finished"
            + (returned
                ? "; it returned only after the checker's own whole replace(title:items:): it loops on a state "
                    + "no writer stored"
                : ", nor \(patience) s after the checker's own whole replace(title:items:)")
        break writers
    case .writerStuck:
        stuck = "replace(title:items:) had not returned \(patience) s after two writers started"
        break writers
    }
}
/// Whether the writer's two sets were already named, under the writers-only FAIL or UNTESTED line.
var writerDiagnosed = false
if let stuck {
    let rest = writerTrials - writersRan
    check.require(
        false,
        writersRequirement,
        kind: writersTorn > 0 ? "inconsistencies" : "concurrent",
        evidence: "in trial \(writersRan) of \(writerTrials), \(stuck)"
            + (rest > 0 ? " (the other \(rest) trials not run)" : "")
    )
    if writersTorn > 0 { diagnoseNoBarrier("a reader looped on a state two replace(title:items:) calls left") }
} else if writersTorn > 0 {
    // A whole version no writer of the trial stored (the empty one) is not a mix: the snapshot after
    // both replace calls returned showed the playlist from before them.
    let stale = tornSample.map(isPublished) ?? false
    check.require(
        false,
        writersRequirement,
        kind: "inconsistencies",
        evidence: "\(writersTorn) of \(writerTrials) trials "
            + (stale
                ? "ended with neither writer's version in the snapshot taken after both "
                    + "replace(title:items:) calls returned, e.g. "
                : "left a state no replace(title:items:) wrote, e.g. ")
            + (tornSample.map(describe) ?? "")
    )
    diagnoseNoBarrier(
        stale
            ? "a snapshot after two replace calls had returned showed neither"
            : "two replace(title:items:) calls at once left the items of one and the title of the other"
    )
} else if writersPaused == 0 {
    // No writer paused, so the writers never overlapped: this part tested nothing, and a check that
    // tested nothing does not pass (nor is it a FAIL of code that may be correct). Without a mark
    // the stress run cannot widen a writer's gap either. A writer that still sets the two apart has
    // a bug, which the Next line's hint is about: the summary then names the mark without hint 6.
    let twoSets = !ReaderTwoLooks.unguarded(in: code) && WriterTwoSets.found(in: code)
    let marked = WriterTwoSets.body(in: code)?.contains("Race.window") ?? false
    check.untested(
        writersRequirement,
        evidence: "in none of \(writerTrials) trials did a writer reach a Race.window mark within 1 s "
            + "of calling replace(title:items:) (on its thread or in work it handed to a queue), "
            + "so none was paused while the other wrote",
        remedy: marked
            ? "move the mark in replace(title:items:) to where every replace passes it, before the "
                + "store or between stores, and not inside a Task or after a delay"
            : "put a Race.window mark back in replace(title:items:)" + (twoSets ? "" : " (hint 6)")
    )
    // What the code did, for the hint, right under the UNTESTED line it explains: a reader that
    // locks or retries its two looks, and a writer that still sets the two properties apart.
    if twoSets {
        writerDiagnosed = true
        check.diagnose(
            "writer-two-sets",
            "read from your code: snapshot() locks or retries its two looks, but replace(title:items:) "
                + "still sets the title and the items in two steps, each under the lock on its own, "
                + "with no mark between them for the check to pause at; no reader can undo what lies "
                + "between them (`writer-two-sets`)"
        )
    }
} else {
    let handedOver = writersPaused - pausesTimedOut
    var pauses: [String] = []
    if pausesTimedOut == 0 {
        pauses.append(
            "one writer paused at its first Race.window mark: in \(handedOver), until the other's "
                + "replace(title:items:) returned"
        )
    } else {
        // The paused writer held what the other needs (its mark is inside the lock or the queue
        // block): that is what keeps the writers apart, so it is said as the fine outcome it is. The
        // mechanism (the pause's 1 s limit, the later trials passing that mark without pausing, since
        // a pause there would only wait again) is left out: on an `ok` line it reads like a warning.
        let holder = ["lock", "Lock", "Mutex"].contains { uncommented(code).contains($0) } ? "lock" : "queue block"
        pauses.append("your \(holder) kept them apart: the paused writer held it")
        if handedOver > 0 { pauses.append("in \(handedOver), the other's replace returned during the pause") }
    }
    // Trials whose writer reached no mark within 1 s: not paused, so not overlapped by the check.
    let unpaused = writersRan - writersPaused - pausesSkipped
    if unpaused > 0 { pauses.append("in \(unpaused), the writer reached no Race.window mark within 1 s") }
    check.require(true, writersRequirement + " (\(writerTrials) trials; " + pauses.joined(separator: "; ") + ")")
}

// A reader that locks or retries its two looks (not one that takes two bare looks, which has its
// own reading below), yet the writers left a mix: the writer stored it. Said right under the FAIL
// it explains (the writers' torn state, or a reader looping on it).
// A lock (or `Mutex`) per property splits both: the reader's two looks are named beside the writer's.
if writersMixed, !noBarrierDiagnosed, !ReaderTwoLooks.unguarded(in: code), !ReaderTwoLooks.found(in: code) {
    writerDiagnosed = true
    let seen = "two replace(title:items:) calls at once left the items of one and the title of the other"
    if ReaderTwoLooks.bothSplit(in: code) { diagnoseBothSplit(seen) } else { diagnoseWriterTwoSets(seen) }
}

// Concurrent: half the iterations write versions, half take snapshots and check them.
struct Trial: Sendable {
    let playlist: Playlist
    /// The trial's snapshots and the torn ones among them: each torn snapshot is also the trial's
    /// inconsistency, so the two counts say the same thing, the second out of the first.
    let snapshots: TornCount
}

extension TornCount {
    /// Counts `snapshot` and returns whether it is torn (no `replace(title:items:)` wrote it).
    func isTorn(_ snapshot: PlaylistSnapshot) -> Bool { count(torn: !isPublished(snapshot)) }
}
/// What the torn-snapshot tally counts, as its line reads: `12 of 50,100 snapshots torn (…)`: the
/// readers' snapshots (half of a trial's iterations) and the one taken after each trial.
let tornPhrase = "snapshots torn (readers' and one after each trial; title and items from different versions)"

/// What a trial's readers saw, in the words of its row: `torn reads · torn after the trial`.
enum ReadersSaw {
    case torn, none

    var outcome: String { self == .torn ? "torn reads" : "no torn read" }
    var meaning: String { self == .torn ? "readers saw torn snapshots" : "no reader saw a torn snapshot" }
    /// The runner's row for a trial whose readers saw torn snapshots and whose snapshot after it
    /// was whole, in the same words.
    static let afterTrial = (
        outcome: "torn reads · whole after the trial",
        meaning: "readers saw torn snapshots; after the trial, snapshot() returned a published version"
    )
}

let variant = ExerciseCheck.variant(
    of: "Playlist",
    makeState: { Trial(playlist: Playlist(), snapshots: TornCount(tornPhrase)) },
    operation: { trial, iteration in
        if iteration.index.isMultiple(of: 2) {
            write(iteration.index + 1, to: trial.playlist)
        } else {
            let snapshot = trial.playlist.snapshot()
            if trial.snapshots.isTorn(snapshot) {
                iteration.recordInconsistency("torn snapshot: \(describe(snapshot))")
            }
        }
    },
    check: { trial, _ in
        // Whether the readers saw a torn snapshot, before the one after the trial is counted: a
        // trial's row says both, so that each trial is in one row (`afterTrial`).
        let readers = trial.snapshots.tally.count > 0 ? ReadersSaw.torn : .none
        let last = trial.playlist.snapshot()
        let torn = trial.snapshots.isTorn(last)
        let whole = !torn && !last.items.isEmpty
        var observation = Observation(
            expected: 1,
            observed: whole ? 1 : 0,
            inconsistencies: whole ? 0 : 1,
            outcome: whole ? "whole" : "\(readers.outcome) · torn after the trial",
            meaning: whole
                ? "a published version"
                : "\(readers.meaning); after the trial, snapshot() returned a playlist no "
                    + "replace(title:items:) wrote: the title of one version with the items of another, or empty"
        )
        observation.tallies.append(trial.snapshots.tally)
        return observation
    }
)
let mixedRequirement = "readers racing writers only ever see whole versions (every trial)"
/// Counts the marked windows reached where the runner binds no hook: not on the callers' threads,
/// where noise may pause, but on a thread of the code's own (a `queue.async` block), which no hook is
/// bound to. The stress run then says where its mark ran, not that the code no longer reaches it.
private final class WindowsElsewhere: RaceWindowHook {
    let count = Atomic<Int>(0)
    func windowReached(_ name: StaticString) { count.wrappingAdd(1, ordering: .relaxed) }
}
private let elsewhere = WindowsElsewhere()
if stuck == nil {
    Race.withFallbackHook(elsewhere) {
        check.stress(
            variant,
            workload: Workload(trials: 100, iterations: 1_000),
            requirement: mixedRequirement,
            inconsistentRow: ReadersSaw.afterTrial,
            inconsistent: tornPhrase,
            unmarked: { threads in
                elsewhere.count.load(ordering: .relaxed) == 0
                    ? nil
                    : "noise on; the marked window runs on another thread (a queue's), where the check adds "
                        + (threads > 1 ? "no pause: the calls still ran at once on \(threads) threads" : "no pause")
            }
        )
    }
} else {
    // A reader that loops on a state no writer stored would loop forever once the writers stop.
    check.note("not run: \(mixedRequirement), since snapshot() did not return above")
}
// What the code did, for the hint, under the FAIL it explains. A concurrent queue with no barrier
// runs the readers' blocks beside the writers'. (An async store's reading is said where a snapshot
// missed a replace; torn reads alone are left to the check-exercise script's reading.)
if check.saw("inconsistencies"), !AsyncStoreWithoutBarrier.found(in: code) {
    diagnoseNoBarrier("readers racing writers saw torn snapshots")
}
/// Whether the writers-only trials cleared the writer: one writer paused at its mark while the
/// other wrote, and every trial left one writer's whole version.
let writersWhole = stuck == nil && writersTorn == 0 && writersPaused > 0
// A writer made whole under one lock, with a reader that still takes two looks (bare, or each
// under a lock of its own), tears snapshots as the starter does; the code tells it apart.
if check.saw("inconsistencies"), !noBarrierDiagnosed, ReaderTwoLooks.found(in: code) {
    let looks =
        ReaderTwoLooks.separateAcquisitions(in: code) >= 2
        ? "takes the title and the items under two separate locks (or queue blocks): a replace can "
            + "land between them; one lock around both looks keeps them together"
        : "still reads the title and the items in two looks, with no lock around both"
    check.diagnose(
        "reader-two-looks",
        "read from your code: replace(title:items:) writes under one lock (or in one barrier block)"
            + (writersWhole ? " (two writers at once left one whole version)" : "")
            + ", but snapshot() \(looks) (`reader-two-looks`)"
    )
} else if !writerDiagnosed, !noBarrierDiagnosed, !ReaderTwoLooks.unguarded(in: code), writersTorn == 0,
    check.saw("inconsistencies")
{
    if writersWhole {
        // The writers alone left whole versions, each paused while the other wrote: the writer is
        // whole, so the torn reads come from how snapshot() takes its looks, whatever the code reads as.
        check.diagnose(
            "reader-two-looks",
            "read from the run: two writers at once left one whole version, so replace(title:items:) "
                + "writes whole, yet readers racing writers saw torn snapshots: snapshot() takes the title "
                + "and the items in separate looks, and a replace lands between them (`reader-two-looks`)"
        )
    } else {
        // A reader that locks or retries its two looks, torn reads, and writers the trials did not
        // test: read from the code, the writer sets the two apart (and the reader too, if it locks
        // each look on its own).
        let seen = "readers racing writers saw torn snapshots"
        if ReaderTwoLooks.bothSplit(in: code) { diagnoseBothSplit(seen) } else { diagnoseWriterTwoSets(seen) }
    }
}
// A reader that takes no lock while the writer stores under one (`snapshot()` returning `state`
// bare): the run may see nothing wrong (one struct, copied in one go, mostly looks whole), but a
// read during the locked write is a data race, whose outcome Swift does not define.
if !check.hasFailed, let line = unlockedRead {
    check.require(false, "snapshot() reads the state under the lock replace(title:items:) takes", kind: "unsynced-read")
    check.diagnose("unsynced-read", line)
}
check.finish()

/// Names a writer that sets the title and the items in two steps, after `seen`, what the run showed.
@MainActor func diagnoseWriterTwoSets(_ seen: String) {
    check.diagnose(
        "writer-two-sets",
        "read from your code: snapshot() locks or retries its two looks, but \(seen): "
            + "replace(title:items:) still sets the title and the items in two steps, each under the "
            + "lock on its own, and no reader can undo what lies between them (`writer-two-sets`)"
    )
}

/// Names both halves of a lock (or `Mutex`) per property, after `seen`, what the run showed: the
/// writer's two stores and the reader's two looks, each under a lock of its own. Each has the hint
/// written for it (hints.md: `writer-two-sets` hint 3, `reader-two-looks` hint 4), and fixing one
/// alone still fails on the other.
@MainActor func diagnoseBothSplit(_ seen: String) {
    check.diagnose(
        "writer-two-sets",
        "read from your code: \(seen): replace(title:items:) stores the title and the items under two "
            + "separate locks (or queue blocks), and a replace can land between them "
            + "(`writer-two-sets`, hint 3)"
    )
    check.diagnose(
        "reader-two-looks",
        "and snapshot() takes the title and the items under two separate locks too: each look is whole, "
            + "the pair is not, and a replace can land between them (`reader-two-looks`, hint 4). One "
            + "lock around both stores, and the same lock around both looks, keeps each version whole"
    )
}

/// How the first writer's pause at its mark ended, if it reached one.
enum Pause {
    /// It reached no mark within 1 s of its call.
    case none
    /// The other writer's replace(title:items:) returned while it was paused.
    case handedOver
    /// The other writer's replace(title:items:) had not returned 1 s into the pause at `mark`.
    case timedOut(mark: String)
    /// Its first mark was the one an earlier trial's pause timed out at: it went on without pausing.
    case skipped
}

enum WritersOutcome {
    /// The snapshot is one writer's whole version.
    case whole
    /// The snapshot is a state neither writer stored.
    case torn(PlaylistSnapshot)
    /// snapshot() had not returned after `patience` s; `returned`: it did once the checker wrote a whole version.
    case readerSpun(returned: Bool)
    /// A replace(title:items:) had not returned after `patience` s.
    case writerStuck
}

/// One writers-only trial: `first` replaces under a hook that pauses it at its first race window
/// until `second`'s replace has returned (unless that window is `skipping`); then one snapshot,
/// waited for at most `patience` seconds.
func writersOnlyTrial(first: Int, second: Int, skipping: String?) -> (WritersOutcome, Pause) {
    let playlist = Playlist()
    let gate = PauseAtFirstWindow(skipping: skipping)
    // The gate is also the process's fallback hook: a mark reached in work the first writer hands
    // to another thread (a `queue.async` block), where the writer's own hook is not bound, pauses
    // there too. The second writer and the reader run under a hook that ignores marks.
    return Race.withFallbackHook(gate) {
        let firstDone = onThread { Race.$hook.withValue(gate) { write(first, to: playlist) } }
        // Not cut short when the first replace returns: work it handed off may reach the mark later.
        let reached = gate.atMark.wait(timeout: .now() + 1) == .success
        if !reached { gate.close() }  // a mark after this is not the first writer's alone
        let secondDone = onThread { Race.$hook.withValue(IgnoreWindows()) { write(second, to: playlist) } }
        // A writer paused inside a lock blocks the other: the pause then ends at this limit. One that
        // did not pause has nothing to hand over.
        let mark = gate.mark
        let skipped = reached && mark != nil && mark == skipping
        let handedOver = !skipped && secondDone.finished(within: 1)
        gate.resume.signal()
        let pause: Pause =
            !reached ? .none : skipped ? .skipped : handedOver ? .handedOver : .timedOut(mark: mark ?? "")
        guard firstDone.finished(within: Double(patience)), secondDone.finished(within: Double(patience)) else {
            return (.writerStuck, pause)
        }
        let reader = PendingSnapshot(playlist)
        if let snapshot = reader.wait(seconds: Double(patience)) {
            let whole = [first, second].contains {
                snapshot == PlaylistSnapshot(title: title($0), items: version($0))
            }
            return (whole ? .whole : .torn(snapshot), pause)
        }
        _ = onThread { Race.$hook.withValue(IgnoreWindows()) { write(first + second, to: playlist) } }
        return (.readerSpun(returned: reader.wait(seconds: Double(patience)) != nil), pause)
    }
}

/// The hook of the threads the gate must not pause: the second writer, the reader.
struct IgnoreWindows: RaceWindowHook {
    func windowReached(_ name: StaticString) {}
}

/// The hook the first writer runs under: its first race window signals `atMark`, then waits (at
/// most `patience` s, a safety net: the trial signals it within about 1 s) for `resume`, so that the
/// other writer's replace returning before `resume` means it returned during the pause; at the
/// window named `skipping` it signals and goes on. Once closed, or past its first window, it
/// ignores windows.
final class PauseAtFirstWindow: RaceWindowHook, @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var reached: String?
    private let skipping: String?
    let atMark = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)

    init(skipping: String?) { self.skipping = skipping }

    /// The name of the first window reached, once `atMark` is signalled.
    var mark: String? { lock.withLock { reached } }

    func windowReached(_ name: StaticString) {
        let first = lock.withLock {
            defer { done = true }
            if !done { reached = "\(name)" }
            return !done
        }
        guard first else { return }
        atMark.signal()
        if "\(name)" == skipping { return }
        _ = resume.wait(timeout: .now() + .seconds(patience))
    }

    /// Stops the gate pausing at all: no window reached it in time.
    func close() { lock.withLock { done = true } }
}

/// Runs `body` on a thread of its own; the semaphore is signalled when it returns.
func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done
}

/// A snapshot taken on a thread of its own, so that a reader that never returns cannot hang the check.
final class PendingSnapshot: @unchecked Sendable {
    private let lock = NSLock()
    private var snapshot: PlaylistSnapshot?
    private var done: DispatchSemaphore!

    init(_ playlist: Playlist) {
        done = onThread { [self] in
            let taken = Race.$hook.withValue(IgnoreWindows()) { playlist.snapshot() }
            lock.withLock { snapshot = taken }
        }
    }

    /// The snapshot, if it returned within `seconds`.
    func wait(seconds: Double) -> PlaylistSnapshot? {
        done.finished(within: seconds) ? lock.withLock { snapshot } : nil
    }
}

extension DispatchSemaphore {
    /// Whether `onThread`'s body returned within `seconds`; asking again after a yes says yes.
    func finished(within seconds: Double) -> Bool {
        guard wait(timeout: .now() + seconds) == .success else { return false }
        signal()
        return true
    }
}

/// A reader that takes two looks: `snapshot()` reads `title` and `items` with no lock of its own
/// around both, while `replace(title:items:)` takes one.
enum ReaderTwoLooks {
    static func found(in code: String) -> Bool {
        func body(of function: String) -> Substring? {
            guard let start = code.range(of: "func \(function)") else { return nil }
            let rest = code[start.upperBound...]
            return rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        }
        guard let writer = body(of: "replace"), let reader = body(of: "snapshot") else { return false }
        let locks = { (body: Substring) in ["lock", "Lock", "sync", "Mutex", "wait"].contains { body.contains($0) } }
        guard locks(writer), reader.contains("title"), reader.contains("items") else { return false }
        // A writer that takes its lock twice sets the two apart: that is the writer's bug, not this.
        return !locks(reader) || (separateAcquisitions(in: code) >= 2 && acquisitions(in: writer) < 2)
    }

    /// What takes a lock or enters a queue: `lock.withLock {`, `lock.lock()`, `queue.sync {`,
    /// `pthread_mutex_lock(`, `semaphore.wait()`.
    static let acquiring = ["withLock", ".lock()", ".sync", "_lock(", ".wait()"]

    /// How many times `body` takes a lock or enters a queue.
    static func acquisitions(in body: Substring) -> Int {
        acquiring.reduce(0) { $0 + body.components(separatedBy: $1).count - 1 }
    }

    /// How many separate times `snapshot()` takes a lock or enters a queue (comments left out): two
    /// or more are two looks, each whole on its own, together not: a replace can land between them.
    static func separateAcquisitions(in code: String) -> Int {
        let code = uncommented(code)
        guard let start = code.range(of: "func snapshot") else { return 0 }
        let rest = code[start.upperBound...]
        return acquisitions(in: rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest)
    }

    /// Whether the writer and the reader each take two separate locks (or queue blocks), as a lock
    /// or `Mutex` per property does (comments left out): `found` leaves out a writer that locks
    /// twice, since that is the writer's bug; here the reader's two looks are a bug as well.
    static func bothSplit(in code: String) -> Bool {
        let code = uncommented(code)
        guard let writer = WriterTwoSets.body(in: code) else { return false }
        return acquisitions(in: writer) >= 2 && separateAcquisitions(in: code) >= 2
    }

    /// Whether `snapshot()` reads the title and the items with neither a lock around both nor a
    /// loop that retries them (the starter's reader).
    static func unguarded(in code: String) -> Bool {
        guard let start = code.range(of: "func snapshot") else { return false }
        let rest = code[start.upperBound...]
        let reader = rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        let guards = ["lock", "Lock", "sync", "Mutex", "wait", "while", "repeat", "for "]
        return !guards.contains { reader.contains($0) } && reader.contains("title") && reader.contains("items")
    }
}

/// A reader that reads, with no lock, a stored property the writer sets under one: `snapshot()`'s
/// own statements (closures dropped with the call they are passed to, which may take a lock) read a
/// stored `var` of `Playlist` that `replace(title:items:)` assigns, and neither lock nor wait nor
/// loop, while `replace` takes a lock or enters a queue. A read that a helper may guard, a
/// computed property, a local and a retry loop are never blamed.
enum UnlockedRead {
    static func line(in code: String) -> String? {
        let playlist = BraceMatching.body(of: "class Playlist", in: code).map(String.init) ?? code
        guard let writer = BraceMatching.body(of: "func replace", in: playlist),
            let reader = BraceMatching.body(of: "func snapshot", in: playlist),
            writer.firstMatch(of: /[Ll]ock|[Ss]ync|Mutex|wait|barrier/) != nil
        else { return nil }
        // Stored properties: declared at the top level of the class, with no body after them.
        let members = BraceMatching.blocksEmptied(playlist)
        let stored = members.split(separator: "\n").compactMap { line -> String? in
            guard !line.contains("{}"), !line.contains("@"),
                let name = line.firstMatch(
                    of: /^\s*(?:(?:private|fileprivate|internal|public)(?:\(set\))?\s+)*var\s+(\w+)/
                )
            else { return nil }
            return String(name.1)
        }
        let own = BraceMatching.ownStatements(reader)
        guard
            own.firstMatch(
                of: /[Ll]ock|wait|[Ee]nter|acquire|[Ss]ync|barrier|[Ss]emaphore|[Aa]tomic|await|while|repeat|for\s/
            ) == nil
        else { return nil }
        let read = stored.first { name in
            codeMatches(#"(^|[^\w.])\#(name)\s*=[^=]|\bself\.\#(name)\s*=[^=]"#, in: writer)
                && !codeMatches(#"\b(let|var)\s+\#(name)\b"#, in: reader)
                && codeMatches(#"(^|[^\w.])\#(name)\b|\bself\.\#(name)\b"#, in: own)
        }
        return read.map { name in
            "read from your code: snapshot() reads `\(name)` taking no lock, while replace(title:items:) "
                + "writes it under one: a read during that write is a data race, whatever the run showed "
                + "(Swift does not define what it does: it can crash) (`unsynced-read`)"
        }
    }
}

/// `code` with its `//` comments left out, as the check-exercise script reads it.
func uncommented(_ code: String) -> String {
    code.split(separator: "\n", omittingEmptySubsequences: false)
        .map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }
        .joined(separator: "\n")
}

/// A writer that stores in blocks on a queue made `.concurrent`, with no `.barrier` anywhere and no
/// lock in `replace(title:items:)` (comments left out): `queue.sync` blocks run at once too, so two
/// writers' stores, and a reader's looks, run side by side.
enum ConcurrentQueueWithoutBarrier {
    static func found(in code: String) -> Bool {
        let code = uncommented(code)
        guard let writer = WriterTwoSets.body(in: code) else { return false }
        return code.contains(".concurrent") && !code.contains(".barrier")
            && !["lock", "Lock", "Mutex"].contains { writer.contains($0) }
    }
}

/// A writer that hands its store to `queue.async` on a queue made `.concurrent`, with no `.barrier`
/// anywhere: blocks on that queue run at once, so a `queue.sync` read sent after the store does not
/// wait for it, and two stores can overlap.
enum AsyncStoreWithoutBarrier {
    static func found(in code: String) -> Bool {
        guard let writer = WriterTwoSets.body(in: code) else { return false }
        return writer.contains(".async") && code.contains(".concurrent") && !code.contains(".barrier")
    }
}

/// A writer that sets the items and the title as two properties: `replace(title:items:)` takes no
/// lock of its own around both (the starter's writer, its mark deleted or not).
enum WriterTwoSets {
    /// The text of `replace(title:items:)`, up to the next `func`.
    static func body(in code: String) -> Substring? {
        guard let start = code.range(of: "func replace") else { return nil }
        let rest = code[start.upperBound...]
        return rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
    }

    static func found(in code: String) -> Bool {
        guard let writer = body(in: code) else { return false }
        let locks = ["lock", "Lock", "sync", "Mutex", "wait"]
        return !locks.contains { writer.contains($0) } && writer.contains("title") && writer.contains("items")
    }
}

// The harness for exercise 6 (do not edit): compiled next to the participant's Playlist.swift.
import ExerciseSupport
import Foundation
import RaceLab

/// What a reader draws: the count it shows in the header and the items it shows as rows.
struct PlaylistSnapshot: Sendable, Equatable {
    let count: Int
    let items: [Int]
}

/// Version `v` of the list: `v % 5 + 1` items, all equal to `v`. A snapshot mixing two versions,
/// or whose count disagrees with its items, was never written by anyone.
func version(_ v: Int) -> [Int] { Array(repeating: v, count: v % 5 + 1) }

func isPublished(_ snapshot: PlaylistSnapshot) -> Bool {
    guard snapshot.count == snapshot.items.count else { return false }
    guard let first = snapshot.items.first else { return true }  // the initial empty list
    return snapshot.items == version(first)
}

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("6 · Playlist snapshots are whole versions")

// Functional: a replace is visible, whole, in the next snapshot (an empty snapshot cannot pass).
let playlist = Playlist()
check.require(playlist.snapshot() == PlaylistSnapshot(count: 0, items: []), "a new playlist is empty")
playlist.replace(with: [7, 8, 9])
check.require(
    playlist.snapshot() == PlaylistSnapshot(count: 3, items: [7, 8, 9]),
    "a snapshot shows the last replace",
    evidence: "got \(playlist.snapshot())"
)
playlist.replace(with: [1])
check.require(
    playlist.snapshot() == PlaylistSnapshot(count: 1, items: [1]),
    "a second replace replaces the first",
    evidence: "got \(playlist.snapshot())"
)

// Concurrent: half the iterations write versions, half take snapshots and check them.
struct Trial: Sendable {
    let playlist: Playlist
    /// The trial's snapshots and the torn ones among them: each torn snapshot is also the trial's
    /// inconsistency, so the two counts say the same thing, the second out of the first.
    let snapshots: TornCount
}

extension TornCount {
    /// Counts `snapshot` and returns whether it is torn (no `replace(with:)` wrote it).
    func isTorn(_ snapshot: PlaylistSnapshot) -> Bool { count(torn: !isPublished(snapshot)) }
}
/// What the torn-snapshot tally counts, as its line reads: `12 of 50,100 snapshots torn (…)`.
let tornPhrase = "snapshots torn (count and items from different versions)"

let variant = ExerciseCheck.variant(
    of: "Playlist",
    makeState: { Trial(playlist: Playlist(), snapshots: TornCount(tornPhrase)) },
    operation: { trial, iteration in
        if iteration.index.isMultiple(of: 2) {
            trial.playlist.replace(with: version(iteration.index + 1))
        } else {
            let snapshot = trial.playlist.snapshot()
            if trial.snapshots.isTorn(snapshot) {
                iteration.recordInconsistency("torn snapshot: count \(snapshot.count), items \(snapshot.items)")
            }
        }
    },
    check: { trial, _ in
        let last = trial.playlist.snapshot()
        let torn = trial.snapshots.isTorn(last)
        let whole = !torn && !last.items.isEmpty
        var observation = Observation(
            expected: 1,
            observed: whole ? 1 : 0,
            inconsistencies: whole ? 0 : 1,
            outcome: whole ? "whole" : "torn",
            meaning: whole
                ? "a published version"
                : "after the trial, snapshot() returned a list no replace(with:) wrote: "
                    + "versions mixed, count and items disagreeing, or empty"
        )
        observation.tallies.append(trial.snapshots.tally)
        return observation
    }
)
check.stress(
    variant,
    workload: Workload(trials: 100, iterations: 1_000),
    requirement: "readers racing writers only ever see whole versions (every trial)",
    inconsistent: tornPhrase
)
// What the code did, for the hint: a writer made whole under one lock, with a reader that still
// takes two looks, tears snapshots as the starter does; the code tells it apart.
if check.saw("inconsistencies"), ReaderTwoLooks.found(in: participantCode("Playlist.swift")) {
    check.diagnose(
        "reader-two-looks",
        "read from your code: replace(with:) writes under one lock, but snapshot() still reads the "
            + "count and the items in two looks, with no lock around both (`reader-two-looks`)"
    )
}
check.finish()

/// A reader that takes two looks: `snapshot()` reads `count` and `items` with no lock of its own
/// around both, while `replace(with:)` takes one.
enum ReaderTwoLooks {
    static func found(in code: String) -> Bool {
        func body(of function: String) -> Substring? {
            guard let start = code.range(of: "func \(function)") else { return nil }
            let rest = code[start.upperBound...]
            return rest.range(of: "func ").map { rest[..<$0.lowerBound] } ?? rest
        }
        guard let writer = body(of: "replace"), let reader = body(of: "snapshot") else { return false }
        let locks = { (body: Substring) in ["lock", "Lock", "sync", "Mutex", "wait"].contains { body.contains($0) } }
        return locks(writer) && !locks(reader) && reader.contains("count") && reader.contains("items")
    }
}

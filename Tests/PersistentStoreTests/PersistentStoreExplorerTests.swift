import Foundation
import RaceLab
import RaceLabTesting
import Testing

@testable import PersistentStore

/// Lesson 5 under the schedule explorer: two threads each store a new version of one document and
/// then read its file directly, as the outside reader does. The store's work items are logical
/// threads of their own, so the explorer chooses where each chunk of a write falls.
@Suite("Lesson 5 under the schedule explorer", .searchesLessonSchedules())
struct PersistentStoreExplorerTests {
    static func exploration(_ name: String) throws -> Exploration {
        try PersistentStoreLesson.lesson.exploration(ofVariant: name)
    }

    /// Explores every schedule within two preemptions, expects a failure whose outcome contains
    /// `symptom`, and replays it.
    static func findAndReplay(_ name: String, symptom: String) async throws {
        let exploration = try exploration(name)
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        #expect(report.failingSchedules > 0)
        let failure = try #require(report.failure)
        #expect(failure.outcome.summary.contains(symptom))
        for _ in 0..<10 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule)
            #expect(replay.outcome == failure.outcome)
        }
    }

    @Test(
        "without the barrier, a second store of the document renames before the first: the older wins, and it replays"
    )
    func noBarrierOverlaps() async throws {
        try await Self.findAndReplay("no-barrier", symptom: "1 store overwritten by an older one")
    }

    @Test("two stores on one folder: the failure names the store each version went through, and it replays")
    func twoStoresNameTheirQueues() async throws {
        try await Self.findAndReplay("two-stores", symptom: "1 store overwritten by an older one (v")
        let report = try await Explorer.explore(try Self.exploration("two-stores"), options: .init(preemptions: 2))
        let summary = try #require(report.failure?.outcome.summary)
        let match = try #require(
            summary.firstMatch(
                of: /overwritten by an older one \(v(\d+) through (store [AB]), v(\d+) through (store [AB])\)/
            ),
            "\(summary)"
        )
        // The newer store was overwritten by an older version that came through the other store.
        #expect(Int(match.3)! < Int(match.1)! && match.2 != match.4, "\(summary)")
    }

    /// Both submit and read; store 2 encodes v1 and writes it, store 3 encodes v2, writes and
    /// renames; store 2's rename of v1 comes last.
    static let secondStoreInside = Schedule(threads: 2, choices: [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 2])

    /// `secondStoreInside` replayed on `variant`, with the state after each step.
    static func statesOfSecondStoreInside(_ variant: String) async throws -> ExecutionResult {
        try await Explorer.replay(try exploration(variant), schedule: secondStoreInside, describingStates: true)
    }

    @Test("between steps: the version the file holds and the versions encoded, so the older rename shows")
    func statesShowTheOlderVersionWinning() async throws {
        let replay = try await Self.statesOfSecondStoreInside("no-barrier")
        #expect(replay.outcome == .invariantBroken("1 store overwritten by an older one"))
        #expect(replay.states.count == 13)
        #expect(replay.states.first == "document-0's file holds v0 · stores encoded none yet")
        #expect(replay.states[5] == "document-0's file holds v0, staging file document-0.<UUID> · stores encoded v1")
        #expect(
            replay.states[11]
                == "document-0's file holds v2, staging file document-0.<UUID> · stores encoded v1 then v2"
        )
        #expect(replay.states.last == "document-0's file holds v1 · stores encoded v1 then v2")
    }

    @Test("writing in place: between the chunks of a write, the state says the file is torn, and how much is there")
    func statesShowAFileHalfWritten() async throws {
        let exploration = try Self.exploration("non-atomic-write")
        let report = try await Explorer.explore(exploration, options: .init(preemptions: 2))
        let failure = try #require(report.failure)
        let replay = try await Explorer.replay(exploration, schedule: failure.schedule, describingStates: true)
        #expect(replay.states.first == "document-0's file holds v0 · stores encoded none yet")
        // The outside read fell between two chunks: the file was torn when it read.
        let whole = Payload.headerLength + DocumentTrial.bodyLength
        let torn = replay.states.filter { $0.hasPrefix("document-0's file is torn (") }
        #expect(
            !torn.isEmpty
                && torn.allSatisfy { $0.contains(" of \(whole.formatted()) bytes) · stores encoded v1") }
        )
    }

    @Test("with a shared staging name, overlapping stores of the document break it, and it replays")
    func sharedStagingNameOverlaps() async throws {
        try await Self.findAndReplay("shared-staging-name", symptom: "store")
    }

    @Test("writing in place, a read outside the queue lands between two chunks: a torn read, and it replays")
    func nonAtomicWriteIsSeenHalfDone() async throws {
        try await Self.findAndReplay("non-atomic-write", symptom: "torn")
    }

    @Test(
        "sharing a staging name, a store run whole inside another's write takes the staging file the first one renames"
    )
    func secondStoreInsideTheFirst() async throws {
        // Both submit, both read the version-0 file, then store 2 writes its first chunks, store 3
        // (the other thread's) runs whole (truncating the shared staging file and renaming it), and
        // store 2 renames a staging file that is no longer there.
        let schedule = Schedule(threads: 2, choices: [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 2])
        let replay = try await Explorer.replay(try Self.exploration("shared-staging-name"), schedule: schedule)
        #expect(replay.outcome == .invariantBroken("1 store failed (rename: No such file or directory)"))
        // With the barrier the second item cannot start inside the first: the schedule does not fit,
        // and the replay is refused rather than run as another schedule.
        let fixed = try Self.exploration("fixed")
        await #expect(throws: ReplayRefusal.self) { try await Explorer.replay(fixed, schedule: schedule) }
    }

    @Test(
        "each step of a write says what it does: a middle chunk, the last chunk and close, the rename",
        arguments: [
            (
                "no-barrier", [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 2], "encode, stage chunk 1", "write staged chunk",
                "finish staged file"
            ),
            (
                "non-atomic-write", [0, 0, 1, 2, 2, 2, 3, 3, 1, 3], "encode, empty file, chunk 1",
                "write chunk in place", "finish file in place"
            ),
        ]
    )
    func writeStepsAreNamedApart(
        variant: String,
        choices: [Int],
        first: String,
        middle: String,
        last: String
    ) async throws {
        // Thread 2 is the first store's work item: its first step encodes, opens, truncates and
        // writes chunk 1; then chunk 2; then chunk 3 (the last) and the close; then, staged, the rename.
        let schedule = Schedule(threads: 2, choices: choices)
        let replay = try await Explorer.replay(try Self.exploration(variant), schedule: schedule)
        let operations = replay.steps.filter { $0.thread == 2 }.map(\.operation)
        // The item's first step is named after what it does, not after its queue: where it writes
        // its first chunk, a staging file or the data file itself.
        #expect(operations.first == first)
        #expect(Array(operations.dropFirst().prefix(2)) == [middle, last])
        if variant == "no-barrier" { #expect(operations.last == "rename staged file") }
    }

    @Test("between steps: one staging file shared by both stores, or a file of its own for each")
    func statesShowTheStagingFileName() async throws {
        // Store 2 writes all of v1, then store 3 opens its staging file and writes its first chunk:
        // with one name, store 3 opened (and truncated) store 2's file; with unique names, a second.
        let shared = try await Self.statesOfSecondStoreInside("shared-staging-name")
        #expect(shared.states[7] == "document-0's file holds v0, staging file document-0 · stores encoded v1")
        #expect(
            shared.states[8] == "document-0's file holds v0, staging file document-0 · stores encoded v1 then v2"
        )
        let unique = try await Self.statesOfSecondStoreInside("no-barrier")
        #expect(
            unique.states[8]
                == "document-0's file holds v0, 2 staging files document-0.<UUID> · stores encoded v1 then v2"
        )
    }

    @Test("barrier writes renamed into place: every schedule within two preemptions is clean")
    func fixedIsCleanInEverySchedule() async throws {
        let report = try await Explorer.explore(try Self.exploration("fixed"), options: .init(preemptions: 2))
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        #expect(report.schedules > 100)
        #expect(report.failingSchedules == 0)
    }
}

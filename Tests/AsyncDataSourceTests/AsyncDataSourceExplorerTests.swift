import Foundation
import RaceLab
import Testing
@testable import AsyncDataSource

/// Lesson 6 under the schedule explorer: a UI thread renders once while a writer publishes two
/// states; the explorer puts each update between every two of the UI's reads.
///
/// Serialized: the actor variant's tasks hold cooperative-pool threads while paused, so two
/// explorations at once could use up a 2-thread pool.
@Suite("Lesson 6 under the schedule explorer", .serialized)
struct AsyncDataSourceExplorerTests {
    /// Generous stall timeout: under a full parallel test run a task may wait long for a pool thread;
    /// a stuck report here would be a test-machine stall, not a finding.
    static let options = ExplorationOptions(preemptions: 2, stallTimeout: 120)

    static func exploration(_ name: String) throws -> Exploration {
        let variant = try #require(AsyncDataSourceLesson.lesson.variant(named: name))
        return try #require(variant.exploration, "variant \(name) should be explorable")
    }

    @Test("an update between the UI's reads shows it a state that never existed",
          arguments: [
              ("public-properties", "the UI saw torn cell"),
              ("atomic-property", "the UI saw torn cell"),
              ("mutable-inside-state", "the UI saw mixed state"),
          ])
    func buggyReadersSeeMixedStates(name: String, broken: String) async throws {
        let exploration = try Self.exploration(name)
        let report = try await Explorer.explore(exploration, options: Self.options)
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        let failure = try #require(report.failure)
        guard case .invariantBroken(let what) = failure.outcome else {
            Issue.record("expected a broken invariant, got \(failure.outcome.summary)")
            return
        }
        #expect(what.hasPrefix(broken))
        // The UI starts rendering, then an update lands before its next read.
        let operations = failure.steps.map(\.operation)
        let render = try #require(operations.firstIndex(of: "render"))
        #expect(operations[(render + 1)...].contains("update"))
        for _ in 0..<20 {
            let replay = try await Explorer.replay(exploration, schedule: failure.schedule, options: Self.options)
            #expect(!replay.diverged)
            #expect(replay.result.outcome == failure.outcome)
        }
    }

    @Test("no schedule of 2 or 3 threads within 2 preemptions misleads the UI of a fixed variant",
          arguments: ["state-object", "actor-state", "specific-queue-observer", "atomic-observer"], [2, 3])
    func fixedVariantsHaveNoFailingSchedule(name: String, threads: Int) async throws {
        let report = try await Explorer.explore(
            Self.exploration(name), options: .init(threads: threads, preemptions: 2, stallTimeout: 120)
        )
        #expect(report.exhaustive)
        #expect(report.abandoned == nil)
        #expect(report.warning == nil)
        #expect(report.schedules > 1)
        #expect(report.failingSchedules == 0)
    }
}

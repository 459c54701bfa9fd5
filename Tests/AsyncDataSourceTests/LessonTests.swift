import AsyncDataSource
import Foundation
import RaceLab
import RaceLabTesting
import Testing

@Suite("Lesson 6 under the stress runner", .serialized)
struct LessonTests {
    static let lesson = AsyncDataSourceLesson.lesson
    static let fixedNames = lesson.variants.filter { $0.kind == .fixed }.map(\.name)
    static let buggyNames = lesson.variants.filter { $0.kind == .buggy }.map(\.name)

    @Test("the lesson has the variants of the issue, each of the kind the README justifies")
    func catalog() {
        #expect(Self.lesson.number == 6)
        #expect(
            Self.buggyNames == [
                "public-properties", "update-without-barrier", "atomic-property", "observer-on-main-queue",
                "mutable-inside-state",
            ]
        )
        #expect(
            Self.fixedNames == [
                "state-object", "actor-state", "sync-operations", "safe-reading-queue",
                "specific-queue-observer", "atomic-observer",
            ]
        )
        #expect(Self.crashingNames == CrashingVariant.allCases.map(\.rawValue))
    }

    /// 6 fixed variants × 20 trials × 1,000 operations = 120,000 operations with noise on, every
    /// reader checking what it read and every observer checking what it was told.
    @Test("a fixed variant is clean over 20,000 operations with noise", arguments: fixedNames)
    func fixedVariantIsClean(name: String) async throws {
        let report = try await Self.stress(name, trials: 20, iterations: 1_000)
        #expect(report.operations == 20_000)
        #expect(report.inconsistencies == 0, "\(report.samples)")
        #expect(report.lostWrites == 0)
        #expect(report.errors == 0)
        #expect(report.verdict == .clean)
    }

    /// The deterministic proofs are in each variant's suite; this checks that the runner sees the bug
    /// too. Measured on the 2-core machine over 20 default runs (release, noise on): 97–100% of trials
    /// anomalous for every buggy variant. At a per-trial rate of even 90%, all 10 trials clean would
    /// happen once in 10^10 runs.
    @Test(
        "a buggy variant shows its bug to the runner",
        .racesOnPurpose("mutable-inside-state shares a class with a var inside the state: a data race"),
        arguments: buggyNames.filter { !crashingNames.contains($0) }
    )
    func buggyVariantReproduces(name: String) async throws {
        let report = try await Self.stress(name, trials: 10, iterations: 400)
        #expect(report.inconsistencies > 0)
        #expect(report.lostWrites == 0)
        #expect(report.verdict == .reproduced)
    }

    /// A buggy variant whose race can also kill the process (`crashMeansReproduced`), and the sign
    /// of its bug the runner must report: `update-without-barrier` writes the state var beside reads
    /// and other writes, `observer-on-main-queue` appends to an array the UI queue iterates.
    enum CrashingVariant: String, Codable, Sendable, CaseIterable, CustomTestStringConvertible {
        case updateWithoutBarrier = "update-without-barrier"
        case observerOnMainQueue = "observer-on-main-queue"

        var testDescription: String {
            switch self {
            case .updateWithoutBarrier: "update-without-barrier loses updates and misleads observers"
            case .observerOnMainQueue: "observer-on-main-queue tells an observer a state twice"
            }
        }

        func showsItsBug(_ report: VariantReport) -> Bool {
            guard report.verdict == .reproduced else { return false }
            switch self {
            case .updateWithoutBarrier: return report.lostWrites > 0
            case .observerOnMainQueue: return report.inconsistencies > 0
            }
        }
    }

    /// Each run is in a process of its own: it exits with `reproducedStatus` when the runner saw the
    /// bug, and a signal (the race killed the process) is the bug too.
    @Test(
        "a variant whose race can kill the process shows its bug to the runner (or dies of the race)",
        .racesOnPurpose("update-without-barrier and observer-on-main-queue race on the state var and on an array"),
        arguments: CrashingVariant.allCases
    )
    func crashingVariantReproduces(variant: CrashingVariant) async throws {
        Self.expectReproducedOrKilled(
            await #expect(processExitsWith: .failure) { [variant] in
                let report = try await LessonTests.stress(variant.rawValue, trials: 10, iterations: 400)
                exit(LessonTests.exitStatus(reproduced: variant.showsItsBug(report)))
            }
        )
    }

    /// The buggy variants whose race can kill the process: tested in exit tests, not in this process.
    static let crashingNames = lesson.variants.filter(\.crashMeansReproduced).map(\.name)

    static let reproducedStatus: Int32 = 42

    /// What an exit test's process exits with: `reproducedStatus` when the runner saw the bug.
    static func exitStatus(reproduced: Bool) -> Int32 {
        reproduced ? reproducedStatus : EXIT_SUCCESS
    }

    /// An exit test of a crashing variant passes when its process exited with `reproducedStatus`,
    /// or died of a signal: the data race corrupted memory, which `crashMeansReproduced` counts.
    static func expectReproducedOrKilled(_ result: ExitTest.Result?, at location: SourceLocation = #_sourceLocation) {
        guard let status = result?.exitStatus else { return }
        switch status {
        case .exitCode(let code):
            #expect(code == reproducedStatus, "the runner saw no sign of the bug", sourceLocation: location)
        case .signal: break
        @unknown default: Issue.record("unexpected exit: \(status)", sourceLocation: location)
        }
    }

    /// Variant `name` under the stress runner, on a thread of its own, with seed 6 and noise on.
    static func stress(_ name: String, trials: Int, iterations: Int) async throws -> VariantReport {
        let variant = try #require(lesson.variant(named: name))
        return await onOwnThread {
            StressRunner.run(
                variant,
                options: .init(workload: Workload(trials: trials, iterations: iterations), seed: 6, noise: true)
            )
        }
    }
}

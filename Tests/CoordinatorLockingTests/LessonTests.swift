import Foundation
import RaceLab
import Testing

@testable import CoordinatorLocking

@Suite("Lesson 4 under the stress runner")
struct LessonTests {
    /// Measured on 2 cores (release and debug alike): a trial of 200 increments loses about half of
    /// them, with or without noise. Tests share the machine with other tests, so a trial may now and
    /// then run on a single thread and lose nothing; 20 trials without a single loss would need
    /// every one of them to. (The deterministic proof is `ForcedInterleavingTests`.)
    /// `same-owner-costly-claim` is not here: its claims' modelled cost leaves its increments
    /// overlapping only when one outlasts it, a rate that depends on the machine's load; its proof is
    /// the explorer's (`CoordinatorLockingExplorerTests`): both claims granted, an increment lost.
    @Test(
        "every buggy variant loses increments",
        arguments: ["uncoordinated", "same-owner", "same-owner-one-instance", "fcntl-process-lock"]
    )
    func buggyVariantsLoseIncrements(name: String) async throws {
        let variant = try #require(CoordinatorLockingLesson.lesson.variant(named: name))
        let report = await StressRunner.run(variant, trials: 20, iterations: 200, seed: 4)
        #expect(report.verdict == .reproduced)
        #expect(report.lostWrites > 0)
        // An increment is lost only when another claim's read-modify-write overlapped it.
        #expect(report.inconsistencies > 0, "the overlaps the meter counted")
        #expect(report.errors == 0)
    }

    /// The buggy variants lose about as much; what their locks let in at once leads the outcome,
    /// and every overlap counts as an inconsistency.
    @Test(
        "a trial's outcome leads with who got in at once, then what it kept",
        arguments: [
            (
                kept: 130, of: 200, overlaps: 3, overlap: "one process",
                outcome: "overlap: one process · 120–139/200",
                meaning: "the counter ended at 120–139 of the trial's 200 increments, the rest lost to overlaps",
                inconsistencies: 3
            ),
            (
                kept: 500, of: 500, overlaps: 0, overlap: "no owner",
                outcome: "no overlap · 500/500", meaning: "all increments kept, one claim at a time",
                inconsistencies: 0
            ),
        ]
    )
    func outcomeLeadsWithTheOverlap(
        trial: (
            kept: Int, of: Int, overlaps: Int, overlap: String, outcome: String, meaning: String, inconsistencies: Int
        )
    ) {
        let described = CoordinatorLockingLesson.outcome(
            .kept(trial.kept, of: trial.of, unit: "increments"),
            overlaps: trial.overlaps,
            overlap: trial.overlap
        )
        #expect(described.outcome == trial.outcome)
        #expect(described.meaning == trial.meaning)
        #expect(described.inconsistencies == trial.inconsistencies, "each overlap is a broken exclusion")
    }

    @Test("the coordinated variant keeps all 5,000 increments, with noise")
    func coordinatedVariantIsClean() async throws {
        let report = await StressRunner.run(CoordinatorLockingLesson.coordinated, trials: 5, iterations: 1_000, seed: 4)
        #expect(report.operations == 5_000)
        #expect(report.verdict == .clean)
        #expect(report.lostWrites == 0)
        #expect(report.errors == 0)
    }

    /// In a process of its own, so that no other test's trial folders are around: runs every
    /// in-process variant, lists what is left in the scratch folder, and exits; the folder itself
    /// must then be gone too (removed at exit).
    @Test("trials leave no files behind, and the process's scratch folder goes at exit")
    func trialsCleanUp() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            for variant in CoordinatorLockingLesson.lesson.variants where variant.name != "cross-process" {
                _ = await StressRunner.run(variant, trials: 2, iterations: 20)
            }
            let folder = try ScratchSpace.processFolder()
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            print("scratch \(folder.path)")
            print("leftovers \(leftovers.count)")
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let lines = output.split(separator: "\n")
        #expect(lines.contains("leftovers 0"))
        let folder = try #require(lines.first { $0.hasPrefix("scratch ") }?.dropFirst("scratch ".count))
        #expect(!FileManager.default.fileExists(atPath: String(folder)))
    }
}

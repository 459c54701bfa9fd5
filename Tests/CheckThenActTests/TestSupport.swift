import CheckThenAct
import Foundation
import RaceLab
import RaceLabTesting
import Testing

/// The lesson's variant called `name`.
func lessonVariant(_ name: String) -> Variant {
    guard let variant = CheckThenActLesson.lesson.variant(named: name) else {
        fatalError("lesson 2 has no variant named \(name)")
    }
    return variant
}

/// Runs the lesson's variant `name` over `trials` trials of `iterations` operations and expects it
/// clean: every operation ran, and no trial lost a write, ran work twice or broke an invariant.
func expectLessonVariantClean(
    _ name: String,
    trials: Int,
    iterations: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let report = await StressRunner.run(lessonVariant(name), trials: trials, iterations: iterations)
    #expect(report.operations == trials * iterations, sourceLocation: sourceLocation)
    #expect(report.anomalousTrials == 0, sourceLocation: sourceLocation)
    #expect(report.duplicates == 0 && report.lostWrites == 0, sourceLocation: sourceLocation)
    #expect(report.verdict == .clean, sourceLocation: sourceLocation)
}

/// Runs the lesson's variant `name` over `trials` trials of `iterations` operations, expects the
/// runner to reproduce its bug, and returns the report for the test's own expectations.
func expectLessonVariantReproduced(
    _ name: String,
    trials: Int,
    iterations: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> VariantReport {
    let report = await StressRunner.run(lessonVariant(name), trials: trials, iterations: iterations)
    #expect(report.verdict == .reproduced, sourceLocation: sourceLocation)
    return report
}

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

/// Runs the lesson's variant `name` for `trials` × `iterations` under the stress runner and expects
/// its bug reproduced with lost writes.
func expectLostWrites(
    _ name: String,
    trials: Int,
    iterations: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let report = await expectReproduced(
        lessonVariant(name),
        workload: Workload(trials: trials, iterations: iterations),
        sourceLocation: sourceLocation
    )
    #expect(report.lostWrites > 0, sourceLocation: sourceLocation)
}

/// Runs the lesson's variant `name` for `trials` × `iterations` under the stress runner and expects
/// it clean over every one of those operations.
func expectCleanOverEveryOperation(
    _ name: String,
    trials: Int,
    iterations: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let report = await expectClean(
        lessonVariant(name),
        workload: Workload(trials: trials, iterations: iterations),
        sourceLocation: sourceLocation
    )
    #expect(report.operations == trials * iterations, sourceLocation: sourceLocation)
}

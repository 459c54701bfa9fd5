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

/// What a stress run of a lesson variant must show.
enum StressExpectation {
    /// Its bug reproduced, with lost writes.
    case lostWrites
    /// Clean over every one of its trials × iterations operations.
    case cleanOverEveryOperation
}

/// Runs the lesson's variant `name` for `trials` × `iterations` under the stress runner and expects
/// what `expected` says.
func expectStress(
    _ name: String,
    trials: Int,
    iterations: Int,
    _ expected: StressExpectation,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    let variant = lessonVariant(name)
    let workload = Workload(trials: trials, iterations: iterations)
    switch expected {
    case .lostWrites:
        let report = await expectReproduced(variant, workload: workload, sourceLocation: sourceLocation)
        #expect(report.lostWrites > 0, sourceLocation: sourceLocation)
    case .cleanOverEveryOperation:
        let report = await expectClean(variant, workload: workload, sourceLocation: sourceLocation)
        #expect(report.operations == trials * iterations, sourceLocation: sourceLocation)
    }
}

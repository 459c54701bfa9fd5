import Foundation
import RaceLab

/// The verdict machinery every exercise's harness shares: functional checks (the operation still does
/// its job), then a stress run through RaceLab's runner with noise on, then one PASS or FAIL line.
///
/// The functional checks come first and are what keeps an exercise from passing by deleting the
/// work: a store that stores nothing never loses a write, a "run once" that never runs never runs
/// twice. Only a file that does the work *and* survives the stress run passes.
final class ExerciseCheck {
    private let title: String
    private var failures: [String] = []

    init(_ title: String) {
        self.title = title
        print("Exercise: \(title)")
    }

    /// One functional requirement, checked single-threaded or after all threads finished.
    func require(_ condition: Bool, _ requirement: String, evidence: @autoclosure () -> String = "") {
        if condition {
            print("  ok    \(requirement)")
        } else {
            let detail = evidence()
            print("  FAIL  \(requirement)" + (detail.isEmpty ? "" : ": \(detail)"))
            failures.append(requirement)
        }
    }

    /// Runs `variant` (the participant's type, which claims to be thread-safe) through the runner
    /// with seeded noise at its race windows, and records a failure with the evidence if any trial
    /// lost a write, duplicated work or broke an invariant.
    func stress(_ variant: Variant, workload: Workload, requirement: String) {
        let seed = UInt64.random(in: 1...UInt64(UInt32.max))
        let report = StressRunner.run(variant, options: .init(workload: workload, seed: seed, noise: true))
        let operations = report.operations.formatted()
        guard report.anomalousTrials > 0 else {
            require(true, "\(requirement) (\(report.trials) trials × \(report.iterations) operations, noise on)")
            return
        }
        var evidence: [String] = [
            "anomalies in \(report.anomalousTrials) of \(report.trials) trials (\(operations) operations, seed \(seed))"
        ]
        if report.lostWrites > 0 { evidence.append("\(report.lostWrites.formatted()) writes lost") }
        if report.duplicates > 0 { evidence.append("\(report.duplicates.formatted()) duplicate executions") }
        if report.inconsistencies > 0 { evidence.append("\(report.inconsistencies.formatted()) inconsistencies") }
        if report.errors > 0 { evidence.append("\(report.errors.formatted()) errors") }
        require(false, requirement, evidence: evidence.joined(separator: "; "))
        let worst = report.histogram.filter { $0.expectation == .forbidden }.prefix(3)
        for row in worst {
            print("        \(row.samples) trials: \(row.outcome) (\(row.meaning))")
        }
        for sample in report.samples.prefix(3) {
            print("        e.g. \(sample)")
        }
    }

    /// Prints the verdict and exits: 0 for PASS, 1 for FAIL.
    func finish() -> Never {
        if failures.isEmpty {
            print("PASS: \(title)")
            exit(0)
        }
        print("FAIL: \(failures.count) requirement\(failures.count == 1 ? "" : "s") not met")
        exit(1)
    }
}

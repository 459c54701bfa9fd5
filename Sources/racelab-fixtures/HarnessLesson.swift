import Foundation
import RaceLab

/// For `racelab-fixtures run harness`: variants whose check prints or traps, and one whose
/// operation starts a helper process and leaves it running, to check the runner's report channel,
/// where a crash is counted, and that nothing a variant starts outlives it.
let harness = Lesson(
    number: 7,
    slug: "harness",
    title: "checks that print or trap; a helper left running; a failed exit",
    summary: "Variants whose check prints or traps, and one that leaves a process running; for 'run'.",
    workload: Workload(trials: 2, iterations: 4),
    variants: [
        Variant.counting(
            name: "check-prints",
            kind: .fixed,
            summary: "every write is kept; the check prints without a newline",
            check: { counter, trial in
                print("RACELAB-REPORT {\"not\": \"a report\"}", terminator: "")
                return .kept(counter.value, of: trial.iterations)
            }
        ),
        Variant.counting(
            name: "check-traps",
            kind: .buggy,
            summary: "its check traps; a crash is this bug's outcome only in its operations",
            crashMeansReproduced: true,
            check: { _, _ in fatalError("fixture check trap") }
        ),
        Variant.counting(
            name: "leaves-helper",
            kind: .fixed,
            summary: "its first operation starts `sleep 600` with Foundation's Process and leaves it running",
            operation: { counter, iteration in
                if iteration.trial == 0 && iteration.index == 0,
                    let pidFile = ProcessInfo.processInfo.environment["RACELAB_FIXTURE_HELPER_PID"]
                {
                    startHelper(pidFile: pidFile)
                }
                counter.withLockedValue { $0 += 1 }
            }
        ),
        Variant.counting(
            name: "exits-66-at-exit",
            kind: .fixed,
            summary: "every write is kept; its process exits with status 66 after the report, as TSan's does",
            operation: { counter, _ in
                atexit { _exit(66) }
                counter.withLockedValue { $0 += 1 }
            }
        ),
    ]
)

/// Starts `/bin/sleep 600` with Foundation's `Process` (which puts it in a process group of its own)
/// and writes its pid to `pidFile`, for a test to check that it is gone once the run is over.
func startHelper(pidFile: String) {
    let helper = Process()
    helper.executableURL = URL(fileURLWithPath: "/bin/sleep")
    helper.arguments = ["600"]
    guard (try? helper.run()) != nil else { return }
    // Written whole, then renamed: a test that sees the file reads a whole pid.
    let partial = pidFile + ".partial"
    _ = FileManager.default.createFile(atPath: partial, contents: Data("\(helper.processIdentifier)".utf8))
    _ = rename(partial, pidFile)
}

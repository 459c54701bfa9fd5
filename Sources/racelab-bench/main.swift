// racelab-bench: what each way of guarding shared state costs, in ns per operation, on this machine.
//
// Usage: racelab-bench [--repetitions R] [--target-ms M] [--output DIR]
// Writes DIR/results.md (tables, the source articles' claims checked, harness overhead) and
// DIR/chart.svg, and prints the tables. `make bench` runs it from a release build.
import Foundation
import RaceLab

struct Options {
    var repetitions = 5
    var targetMilliseconds = 40.0
    var output = ".build/bench"
    let threadCounts = [1, 2, 4, 8]

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(
                Data(
                    "racelab-bench: error: \(message)\nusage: racelab-bench [--repetitions R] [--target-ms M] [--output DIR]\n"
                        .utf8
                )
            )
            exit(2)
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--repetitions":
                guard let value = rest.popFirst().flatMap(Int.init), value > 0 else {
                    fail("--repetitions needs a positive integer")
                }
                repetitions = value
            case "--target-ms":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else {
                    fail("--target-ms needs a positive number")
                }
                targetMilliseconds = value
            case "--output":
                guard let value = rest.popFirst() else { fail("--output needs a folder") }
                output = value
            case "-h", "--help":
                print("usage: racelab-bench [--repetitions R] [--target-ms M] [--output DIR]")
                exit(0)
            default:
                fail("unknown argument '\(argument)'")
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let cores = ProcessInfo.processInfo.activeProcessorCount
let started = ContinuousClock().now
FileHandle.standardError.write(
    Data(
        "racelab-bench: \(cores) cores, \(options.repetitions) repetitions of ~\(Int(options.targetMilliseconds)) ms per cell\n"
            .utf8
    )
)

/// Operations per thread for one measurement of a cell, so that it takes about the target time.
///
/// Calibrated per cell, with the cell's own thread count: contention can make an operation ten times
/// dearer at 8 threads than at 1, and a budget set at 1 thread would then overrun tenfold.
@MainActor func calibrate(_ strategy: Strategy, _ mix: Mix, threads: Int) -> Int {
    let probe = max(500, 4_000 / threads)
    let nanoseconds = measure(strategy, mix: mix, threads: threads, operationsPerThread: probe, seed: 7).nanoseconds
    let perRound = max(nanoseconds / Double(probe), 1)
    return min(2_000_000, max(200, Int(options.targetMilliseconds * 1e6 / perRound)))
}

var results: [[Strategy: [Int: Sample]]] = []
for mix in Mix.all {
    var byStrategy: [Strategy: [Int: Sample]] = [:]
    for strategy in Strategy.allCases {
        var byThreads: [Int: Sample] = [:]
        for threads in options.threadCounts {
            let perThread = calibrate(strategy, mix, threads: threads)
            let values = (0..<options.repetitions).map { repetition in
                measure(strategy, mix: mix, threads: threads, operationsPerThread: perThread, seed: UInt64(repetition))
                    .nanoseconds / Double(perThread * threads)
            }
            byThreads[threads] = Sample(values)
        }
        byStrategy[strategy] = byThreads
    }
    results.append(byStrategy)
}

let overhead = HarnessOverhead(trials: 50, iterations: 1_000, repetitions: options.repetitions).run()
let elapsed = (ContinuousClock().now - started).nanoseconds / 1e9

func cell(_ sample: Sample) -> String {
    String(format: "%.1f (%.1f–%.1f)", sample.median, sample.minimum, sample.maximum)
}

var markdown = """
    # RaceLab benchmark: the cost of guarding shared state

    Machine: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString); release build.
    Each cell: **ns per operation** = wall time ÷ all operations of all threads (lower is better), the
    median of \(options.repetitions) runs, with (min–max). One operation reads or increments one shared
    `Int` behind the guard. Threads are real threads released together; the actor is driven by that
    many tasks instead. Concurrent-queue writes are asynchronous barriers, drained inside the timing.
    Total benchmark time: \(String(format: "%.0f", elapsed)) s.


    """
for (index, mix) in Mix.all.enumerated() {
    markdown +=
        "## \(mix.name)\n\n| strategy | "
        + options.threadCounts.map { "\($0) thread\($0 == 1 ? "" : "s")" }.joined(separator: " | ") + " |\n"
    markdown += "|---|" + options.threadCounts.map { _ in "---:" }.joined(separator: "|") + "|\n"
    for strategy in Strategy.allCases {
        let row = options.threadCounts.map { cell(results[index][strategy]![$0]!) }
        markdown += "| \(strategy.rawValue) | " + row.joined(separator: " | ") + " |\n"
    }
    markdown += "\n"
}

// The source articles' two claims, checked against these numbers.
@MainActor func median(_ strategy: Strategy, _ mixIndex: Int, _ threads: Int) -> Double {
    results[mixIndex][strategy]![threads]!.median
}
let readHeavy = 0
markdown += "## The source articles' claims, checked\n\n"
for threads in [1, 2] {
    let serial = median(.serialQueue, readHeavy, threads)
    let concurrent = median(.concurrentQueue, readHeavy, threads)
    markdown +=
        "- *\"Concurrent reading gives a slight benefit\"* (read-heavy, \(threads) thread\(threads == 1 ? "" : "s")): "
        + "concurrent queue \(String(format: "%.1f", concurrent)) ns/op vs serial queue \(String(format: "%.1f", serial)) ns/op: "
        + (concurrent < serial
            ? "**holds** (\(String(format: "%.0f", (1 - concurrent / serial) * 100))% faster)"
            : "**does not hold** (\(String(format: "%.0f", (concurrent / serial - 1) * 100))% slower)") + ".\n"
}
let writeHeavy = 2
let serialW = median(.serialQueue, writeHeavy, 2)
let concurrentW = median(.concurrentQueue, writeHeavy, 2)
markdown +=
    "- *\"Concurrent queues are not as optimized as serial queues\"* (write-heavy, 2 threads): concurrent queue "
    + "\(String(format: "%.1f", concurrentW)) ns/op vs serial \(String(format: "%.1f", serialW)) ns/op: "
    + (concurrentW > serialW ? "**holds**" : "**does not hold** here") + ".\n"
let lock2 = median(.nsLock, readHeavy, 2)
markdown +=
    "- For comparison, `NSLock` in the read-heavy case at 2 threads: \(String(format: "%.1f", lock2)) ns/op.\n\n"

markdown += """
    ## Harness overhead

    Lesson 1's `fixed` variant (50 trials × 1,000 stores, noise off) through `StressRunner`, against a bare
    `concurrentPerform` loop doing the same stores and the same count check. Operations per second, median
    of \(options.repetitions) (min–max):

    | | operations/s |
    |---|---:|
    | runner | \(String(format: "%.0f (%.0f–%.0f)", overhead.runner.median, overhead.runner.minimum, overhead.runner.maximum)) |
    | bare loop | \(String(format: "%.0f (%.0f–%.0f)", overhead.bare.median, overhead.bare.minimum, overhead.bare.maximum)) |
    | **overhead ratio** (bare ÷ runner) | **\(String(format: "%.2f", overhead.ratio))×** |

    """

try FileManager.default.createDirectory(atPath: options.output, withIntermediateDirectories: true)
let markdownPath = options.output + "/results.md"
let chartPath = options.output + "/chart.svg"
try markdown.write(toFile: markdownPath, atomically: true, encoding: .utf8)
let chart = SVGChart(
    mixes: Mix.all,
    strategies: Strategy.allCases,
    threadCounts: options.threadCounts,
    results: results,
    title: "Guarding one shared Int: ns per operation on \(cores) cores"
)
try chart.render().write(toFile: chartPath, atomically: true, encoding: .utf8)
print(markdown)
print("wrote \(markdownPath) and \(chartPath)")

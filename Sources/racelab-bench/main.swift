// racelab-bench: what each way of guarding shared state costs, in ns per operation, on this machine.
//
// Usage: racelab-bench [--repetitions R] [--target-ms M] [--workload counter|blob|all|overhead|explorer]
//        [--output DIR]
// Writes DIR/results.md (tables, the source articles' claims checked, harness overhead), DIR/chart.svg
// (the counter) and DIR/blob-chart.svg (the blob), and prints the tables. `make bench` runs it from
// a release build. `--workload overhead` measures the harness overhead alone; `--workload explorer`
// prints what an explorer schedule costs against a bare hand-off between two threads (`make
// bench-explorer`) and writes nothing.
import Foundation
import RaceLab

struct Options {
    static let usage =
        "usage: racelab-bench [--repetitions R] [--target-ms M] [--workload counter|blob|all|overhead|explorer] "
        + "[--output DIR]"
    var repetitions = 5
    var targetMilliseconds = 40.0
    var output = ".build/bench"
    /// Which workloads to run: the shared counter, the shared blob, or both (the default).
    var runsCounter = true
    var runsBlob = true
    /// The harness overhead: with the counter, or alone.
    var runsOverhead = true
    /// The explorer's cost per schedule, alone.
    var runsExplorer = false
    let threadCounts = [1, 2, 4, 8]
    /// Fewer for the blob, to keep `make bench` short: 2 cores are full at 2 threads, 4 oversubscribes.
    let blobThreadCounts = [1, 2, 4]
    /// Twice the counter's repetitions (each a quarter of the target time): guards are compared run by run.
    var blobRepetitions: Int { 2 * repetitions }

    init(_ arguments: [String]) {
        var rest = arguments[...]
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(
                Data(
                    "racelab-bench: error: \(message)\n\(Options.usage)\n".utf8
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
            case "--workload":
                switch rest.popFirst() {
                case "counter": runsBlob = false
                case "blob": (runsCounter, runsOverhead) = (false, false)
                case "all": break
                case "overhead": (runsCounter, runsBlob) = (false, false)
                case "explorer": (runsCounter, runsBlob, runsOverhead, runsExplorer) = (false, false, false, true)
                default: fail("--workload needs counter, blob, all, overhead or explorer")
                }
            case "--output":
                guard let value = rest.popFirst() else { fail("--output needs a folder") }
                output = value
            case "-h", "--help":
                print(Options.usage)
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

/// The 1-minute load average (runnable threads, all processes): how busy the machine was around the
/// run. `getloadavg` is in both Glibc and Darwin; nil if it fails.
func loadAverage() -> Double? {
    var loads = [0.0, 0.0, 0.0]
    return getloadavg(&loads, 3) >= 1 ? loads[0] : nil
}
let loadAtStart = loadAverage()
if options.runsExplorer {
    let result = try ExplorerCost(repetitions: options.repetitions).run()
    print(result.text)
    let loads = [loadAtStart, loadAverage()].map { $0.map { String(format: "%.2f", $0) } ?? "unknown" }
    print("load average (1 min, all processes): \(loads[0]) at the start, \(loads[1]) at the end")
    exit(0)
}
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

/// The blob's counterpart of `calibrate`, for a quarter of the target time: the blob runs twice as many
/// repetitions, to compare guards run by run. The probe copies about 8 MB per thread.
@MainActor func calibrateBlob(_ strategy: BlobStrategy, _ workload: BlobWorkload, threads: Int) -> Int {
    let probe = max(4, (8 << 20) / workload.bytes / threads)  // a quarter of the counter's target
    let nanoseconds = measureBlob(strategy, workload: workload, threads: threads, operationsPerThread: probe, seed: 7)
        .nanoseconds
    let perRound = max(nanoseconds / Double(probe), 1)
    return min(1_000_000, max(4, Int(options.targetMilliseconds / 4 * 1e6 / perRound)))
}

var results: [[Strategy: [Int: Sample]]] = []
if options.runsCounter {
    for mix in Mix.all {
        var byStrategy: [Strategy: [Int: Sample]] = [:]
        for strategy in Strategy.allCases {
            var byThreads: [Int: Sample] = [:]
            for threads in options.threadCounts {
                let perThread = calibrate(strategy, mix, threads: threads)
                let values = (0..<options.repetitions).map { repetition in
                    measure(
                        strategy,
                        mix: mix,
                        threads: threads,
                        operationsPerThread: perThread,
                        seed: UInt64(repetition)
                    )
                    .nanoseconds / Double(perThread * threads)
                }
                byThreads[threads] = Sample(values)
            }
            byStrategy[strategy] = byThreads
        }
        results.append(byStrategy)
    }
}

/// blobRuns[workload index][strategy][threads]: ns per operation of each repetition, in order.
///
/// Interleaved: each repetition measures every strategy once, back to back, so that a change in the
/// machine's load between repetitions hits all of them, and strategies can be compared run by run.
/// Strategies that cannot run a workload (the unguarded baseline with writes) are absent.
var blobRuns: [[BlobStrategy: [Int: [Double]]]] = []
if options.runsBlob {
    for workload in BlobWorkload.all {
        let strategies = BlobStrategy.allCases.filter { $0.supports(workload) }
        var byStrategy: [BlobStrategy: [Int: [Double]]] = [:]
        for threads in options.blobThreadCounts {
            let perThread = Dictionary(
                uniqueKeysWithValues: strategies.map { ($0, calibrateBlob($0, workload, threads: threads)) }
            )
            for repetition in 0..<options.blobRepetitions {
                for strategy in strategies {
                    let duration = measureBlob(
                        strategy,
                        workload: workload,
                        threads: threads,
                        operationsPerThread: perThread[strategy]!,
                        seed: UInt64(repetition)
                    )
                    byStrategy[strategy, default: [:]][threads, default: []].append(
                        duration.nanoseconds / Double(perThread[strategy]! * threads)
                    )
                }
            }
        }
        blobRuns.append(byStrategy)
    }
}
/// blobResults[workload index][strategy][threads]: the runs' median and min–max.
let blobResults = blobRuns.map { $0.mapValues { $0.mapValues(Sample.init) } }

let overhead =
    options.runsOverhead ? HarnessOverhead(trials: 50, iterations: 1_000, repetitions: options.repetitions).run() : nil
let elapsed = (ContinuousClock().now - started).nanoseconds / 1e9
let loadAtEnd = loadAverage()

func cell(_ sample: Sample) -> String {
    String(format: "%.1f (%.1f–%.1f)", sample.median, sample.minimum, sample.maximum)
}

/// A blob cell in microseconds (its operations take thousands of nanoseconds).
func blobCell(_ sample: Sample) -> String {
    String(format: "%.2f (%.2f–%.2f)", sample.median / 1e3, sample.minimum / 1e3, sample.maximum / 1e3)
}

func threadsHeader(_ counts: [Int]) -> String {
    counts.map { "\($0) thread\($0 == 1 ? "" : "s")" }.joined(separator: " | ") + " |\n"
        + "|---|" + counts.map { _ in "---:" }.joined(separator: "|") + "|\n"
}

/// How `a` compares with `b`, run by run (both lists from the same interleaved repetitions).
///
/// A verdict needs every paired run to agree; otherwise it says how many did. The ratio is the median
/// of the per-run ratios a ÷ b.
func comparison(_ a: [Double], _ b: [Double]) -> String {
    let ratios = zip(a, b).map { $0 / $1 }
    let ratio = Sample(ratios).median
    let faster = ratios.filter { $0 < 1 }.count
    let verdict =
        faster == ratios.count
        ? "faster in all \(ratios.count) runs"
        : faster == 0
            ? "slower in all \(ratios.count) runs"
            : "faster in \(faster) of \(ratios.count) runs (no consistent difference)"
    return verdict + String(format: ", median time ratio %.2f", ratio)
}

/// The load averages measured around the run, and what a load above the core count means.
let loadNote: String = {
    guard let loadAtStart, let loadAtEnd else { return "Load average: unknown (getloadavg failed)." }
    let note = String(
        format: "Load average (1 min, all processes): %.2f at the start, %.2f at the end",
        loadAtStart,
        loadAtEnd
    )
    return max(loadAtStart, loadAtEnd) > Double(cores)
        ? note + "; above \(cores) cores: on average more threads wanted to run than there were cores, "
            + "so parallel readers here may have waited for one."
        : note + "."
}()

var markdown = """
    # RaceLab benchmark: the cost of guarding shared state

    Machine: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString); release build.
    Total benchmark time: \(String(format: "%.0f", elapsed)) s. \(loadNote)


    """
if options.runsCounter {
    markdown += """
        ## Workload 1: one shared `Int`

        Each cell: **ns per operation** = wall time ÷ all operations of all threads (lower is better), the
        median of \(options.repetitions) runs, with (min–max). One operation reads or increments one shared
        `Int` behind the guard. Threads are real threads released together; the actor is driven by that
        many tasks instead. Concurrent-queue writes are asynchronous barriers, drained inside the timing.


        """
    for (index, mix) in Mix.all.enumerated() {
        markdown += "### \(mix.name)\n\n| strategy | " + threadsHeader(options.threadCounts)
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
    markdown += "### The source articles' claims, checked on one `Int`\n\n"
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
}

if options.runsBlob {
    markdown += """
        ## Workload 2: one shared data blob (the article's "large data blobs")

        Each cell: **µs per operation** = wall time ÷ all operations of all threads (lower is better), the
        median of \(options.blobRepetitions) runs, with (min–max). The shared value is a `Data` blob of the size
        shown. A read copies all its bytes into the reading thread's own buffer, either *under* the guard
        (the critical section grows with the blob, so readers running in parallel could gain) or *after*
        it (the guard hands out the copy-on-write `Data`, as the article's getter does, and the bytes are
        copied outside). A write replaces the blob with one the thread built before the timing. Every read
        checks it copied one whole blob. The baseline copies with no guard (reads only: it would be a race
        with writers). Threads: \(options.blobThreadCounts.map(String.init).joined(separator: ", ")) on \(cores) cores.


        """
    for (index, workload) in BlobWorkload.all.enumerated() {
        markdown += "### \(workload.name)\n\n| strategy | " + threadsHeader(options.blobThreadCounts)
        for strategy in BlobStrategy.allCases {
            guard let samples = blobResults[index][strategy] else { continue }
            let row = options.blobThreadCounts.map { blobCell(samples[$0]!) }
            markdown += "| \(strategy.rawValue) | " + row.joined(separator: " | ") + " |\n"
        }
        markdown += "\n"
    }

    markdown += """
        ### The article's claim, checked on blobs

        *"Concurrent queues are not as optimized as serial queues, but the reasoning here is that we store
        large data blobs and concurrent reading gives us a slight benefit over serial reading."* At 2
        threads (one per core), per workload, compared run by run (each repetition measured the guards
        back to back): the concurrent queue against the serial queue (the claim), and against `NSLock`;
        `pthread_rwlock_t` (the other guard that lets readers in together) against `NSLock`; and, for
        reads only, unguarded copies at 2 threads against 1 (the most any guard could let readers gain).


        """
    for (index, workload) in BlobWorkload.all.enumerated() {
        let runs = blobRuns[index]
        func at2(_ strategy: BlobStrategy) -> [Double] { runs[strategy]![2]! }
        markdown +=
            "- \(workload.name): concurrent queue vs serial queue: "
            + "**\(comparison(at2(.concurrentQueue), at2(.serialQueue)))**; "
            + "concurrent queue vs `NSLock`: \(comparison(at2(.concurrentQueue), at2(.nsLock))); "
            + "`pthread_rwlock_t` vs `NSLock`: \(comparison(at2(.readWriteLock), at2(.nsLock)))"
        if let baseline = blobResults[index][.unguarded] {
            markdown += String(
                format: "; unguarded copies, 2 threads vs 1: %.2f vs %.2f µs/op (medians)",
                baseline[2]!.median / 1e3,
                baseline[1]!.median / 1e3
            )
        }
        markdown += ".\n"
    }
    markdown += "\n(A time ratio below 1 means the first guard took less time per operation.)\n\n"
}

if let overhead {
    markdown += """
        ## Harness overhead

        Lesson 1's `fixed` variant (50 trials × 1,000 stores, noise off) through `StressRunner`, against a bare
        `concurrentPerform` loop doing the same stores and the same count check. Operations per second, median
        of \(options.repetitions) (min–max):

        | | operations/s |
        |---|---:|
        | runner | \(String(format: "%.0f (%.0f–%.0f)", overhead.runner.median, overhead.runner.minimum, overhead.runner.maximum)) |
        | bare loop | \(String(format: "%.0f (%.0f–%.0f)", overhead.bare.median, overhead.bare.minimum, overhead.bare.maximum)) |
        | **overhead ratio** (bare ÷ runner, median of the paired runs) | **\(String(format: "%.2f", overhead.ratio))×** (\(String(format: "%.2f–%.2f", overhead.ratios.minimum, overhead.ratios.maximum))) |

        """
}

try FileManager.default.createDirectory(atPath: options.output, withIntermediateDirectories: true)
let markdownPath = options.output + "/results.md"
try markdown.write(toFile: markdownPath, atomically: true, encoding: .utf8)
var written = [markdownPath]
/// Writes `chart` as `name` in the output folder.
@MainActor func write(_ chart: SVGChart, as name: String) throws {
    let path = options.output + "/" + name
    try chart.render().write(toFile: path, atomically: true, encoding: .utf8)
    written.append(path)
}
if options.runsCounter {
    try write(
        SVGChart(
            panels: Mix.all.map(\.name),
            strategies: Strategy.allCases.map(\.rawValue),
            threadCounts: options.threadCounts,
            results: results.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) }) },
            title: "Guarding one shared Int: ns per operation on \(cores) cores"
        ),
        as: "chart.svg"
    )
}
if options.runsBlob {
    var chart = SVGChart(
        panels: BlobWorkload.all.map(\.name),
        strategies: BlobStrategy.allCases.map(\.rawValue),
        threadCounts: options.blobThreadCounts,
        results: blobResults.map { cells in
            Dictionary(uniqueKeysWithValues: cells.map { ($0.key.rawValue, $0.value.mapValues(\.microseconds)) })
        },
        title: "Guarding one shared Data blob: µs per operation on \(cores) cores"
    )
    chart.unit = "µs per operation"
    chart.columns = 4
    chart.xLabel = "threads"
    try write(chart, as: "blob-chart.svg")
}
print(markdown)
print("wrote " + written.joined(separator: ", "))

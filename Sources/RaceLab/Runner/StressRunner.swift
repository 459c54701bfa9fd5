import Foundation
import Synchronization

/// Runs a variant for a number of independent trials and measures what went wrong.
///
/// Each trial makes fresh state, runs the variant's operation in every iteration of one
/// `DispatchQueue.concurrentPerform`, waits for any tasks those iterations started, then runs the
/// variant's check. Workers meet at a start gate before their first iteration so that they collide.
/// With noise on, each iteration gets its own seeded noise hook at the race windows it reaches.
///
/// The runner runs in the calling process: a variant that traps takes the process with it. The
/// command-line tool therefore runs every variant in a child process (see `IsolatedRun`).
/// From async code, call the `async` form of `run`, which keeps the cooperative pool free.
public enum StressRunner {
    /// Options of one run.
    public struct Options: Sendable {
        /// Trials and iterations per trial.
        public var workload: Workload
        /// The seed of the noise decisions.
        public var seed: UInt64
        /// Whether to inject noise at race windows.
        public var noise: Bool
        /// Seconds after which no new trial starts (at least one always runs); `nil` runs every trial.
        ///
        /// For instrumented builds (ThreadSanitizer makes some lessons 10-100x slower), where a fixed
        /// trial count would either take far too long or be too small for the fast variants. The
        /// report's `trials` says how many trials actually ran.
        public var timeBudget: Double?
        /// Whether to stop after the first trial that shows an anomaly: for a check that only asks
        /// whether the bug shows (`expectReproduced`), not how often.
        public var stopsAtFirstAnomaly = false
        /// Trials the time budget never cuts: it stops the run only after this many (at least one).
        public var minimumTrials = 1
        /// The index of the first trial to run: a run that continues one whose process died runs
        /// trials `firstTrial..<workload.trials`, numbered as in the whole run, so that each keeps
        /// its noise decisions and the report's trial numbers are the whole run's.
        package var firstTrial = 0

        /// Options of a run.
        /// - Parameters:
        ///   - workload: trials and iterations per trial.
        ///   - seed: the seed of the noise decisions.
        ///   - noise: whether to inject noise at race windows.
        ///   - timeBudget: seconds after which no new trial starts; nil runs every trial.
        public init(workload: Workload, seed: UInt64, noise: Bool, timeBudget: Double? = nil) {
            self.workload = workload
            self.seed = seed
            self.noise = noise
            self.timeBudget = timeBudget
        }
    }

    /// The part of a trial that runs: the variant's own code, or the check around it.
    public enum Phase: Sendable {
        /// Making the trial's state and running its operations.
        case variant
        /// Checking the trial and tearing it down.
        case check
    }

    /// Runs `variant` and returns its report.
    ///
    /// - Parameters:
    ///   - variant: the variant to run, in this process.
    ///   - options: workload, seed, noise and time budget.
    ///   - entering: called on the calling thread as each trial enters each `Phase`, so that a child
    ///     process can say where a crash happened.
    ///   - afterTrial: called on the calling thread after each trial with the number done.
    ///   - progress: when given, called on the calling thread after each trial with the report of
    ///     the trials so far, so that a child process that dies in a later trial leaves them behind.
    public static func run(
        _ variant: Variant,
        options: Options,
        entering: (Phase) -> Void = { _ in },
        afterTrial: (Int) -> Void = { _ in },
        progress: ((VariantReport) -> Void)? = nil
    ) -> VariantReport {
        let iterations = options.workload.iterations
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var totals = Totals(leadingSample: variant.leadingSample)
        var histogram = HistogramBuilder()
        let clock = ContinuousClock()
        let started = clock.now

        var firstAnomaly: (trial: Int, seconds: Double)?
        var trialsRun = 0
        var windowsReached = 0
        /// The report of the trials run so far.
        func report() -> VariantReport {
            let wall = (clock.now - started).seconds
            let trials = trialsRun
            let verdict = Verdict.judging(
                variant.kind,
                anomalousTrials: totals.anomalousTrials,
                errorTrials: totals.errorTrials
            )
            return VariantReport(
                name: variant.name,
                kind: variant.kind,
                summary: variant.summary,
                trials: trials,
                iterations: iterations,
                operations: totals.setUpTrials * iterations,
                anomalousTrials: totals.anomalousTrials,
                errorTrials: totals.errorTrials,
                lostWrites: totals.lostWrites,
                inconsistencies: totals.inconsistencies,
                duplicates: totals.duplicates,
                errors: totals.errors,
                histogram: histogram.rows(trials: trials),
                samples: totals.samples,
                wallSeconds: wall,
                operationsPerSecond: wall > 0 ? Double(totals.setUpTrials * iterations) / wall : 0,
                seed: options.seed,
                noise: options.noise,
                firstAnomalousTrial: firstAnomaly?.trial,
                secondsToFirstAnomaly: firstAnomaly?.seconds,
                verdict: verdict,
                verdictReason: reason(
                    for: verdict,
                    anomalousTrials: totals.anomalousTrials,
                    errorTrials: totals.errorTrials,
                    trials: trials,
                    firstError: totals.firstError
                ),
                windowsReached: windowsReached,
                tallies: totals.tallies.isEmpty ? nil : totals.tallies
            )
        }

        for trial in options.firstTrial..<max(options.firstTrial, options.workload.trials) {
            if trial - options.firstTrial >= max(1, options.minimumTrials), let budget = options.timeBudget,
                (clock.now - started).seconds >= budget
            {
                break
            }
            trialsRun = trial - options.firstTrial + 1
            let result = runTrial(
                variant,
                trial: trial,
                iterations: iterations,
                cores: cores,
                options: options,
                entering: entering
            )
            if result.isAnomalous && firstAnomaly == nil {
                firstAnomaly = (trial + 1, (clock.now - started).seconds)
            }
            totals.add(result)
            windowsReached += result.windowsReached
            histogram.add(
                outcome: result.outcome,
                expectation: result.hadError ? .error : result.isAnomalous ? .forbidden : .acceptable,
                meaning: result.meaning,
                distance: result.distance
            )
            afterTrial(trialsRun)
            progress?(report())
            if options.stopsAtFirstAnomaly && firstAnomaly != nil { break }
        }

        return report()
    }

    /// Runs `variant` on a thread of its own and returns its report: the form to call from async
    /// code, including Swift Testing tests.
    ///
    /// The synchronous `run` blocks its thread until every trial's tasks are done. Called from a
    /// thread of the cooperative pool (which has one thread per core), a few such calls
    /// would hold the whole pool while waiting for tasks that need it, and deadlock.
    public static func run(_ variant: Variant, options: Options) async -> VariantReport {
        await onOwnThread { run(variant, options: options) }
    }

    /// Runs `variant` for `trials` × `iterations` on a thread of its own: the short form for tests.
    public static func run(
        _ variant: Variant,
        trials: Int,
        iterations: Int,
        noise: Bool = true,
        seed: UInt64 = 1
    ) async -> VariantReport {
        await run(
            variant,
            options: Options(workload: Workload(trials: trials, iterations: iterations), seed: seed, noise: noise)
        )
    }

    static func reason(
        for verdict: Verdict,
        anomalousTrials: Int,
        errorTrials: Int = 0,
        trials: Int,
        firstError: String? = nil
    ) -> String {
        let share = "\(grouped(anomalousTrials)) of \(grouped(trials)) trials"
        // Evidence from clean trials stands, but the reader must know how much of the run it rests on.
        let besides =
            errorTrials > 0
            ? "; \(grouped(errorTrials)) other trial\(errorTrials == 1 ? "" : "s") had errors and did not count" : ""
        switch verdict {
        case .reproduced: return "the bug showed in \(share)" + besides
        case .notReproduced:
            return trials == 1
                ? "the bug did not show in its 1 trial" : "the bug did not show in any of \(grouped(trials)) trials"
        case .clean: return trials == 1 ? "no anomaly in its 1 trial" : "no anomaly in any of \(grouped(trials)) trials"
        case .failed: return "anomalies in \(share) of a fixed variant" + besides
        case .error:
            let what = firstError.map { ", first: \($0)" } ?? ""
            return "\(grouped(errorTrials)) of \(grouped(trials)) trials had errors (not evidence of the bug)\(what)"
        case .crashed, .timedOut: return verdict.label.lowercased()
        }
    }

    private static func runTrial(
        _ variant: Variant,
        trial: Int,
        iterations: Int,
        cores: Int,
        options: Options,
        entering: (Phase) -> Void
    ) -> TrialResult {
        let log = TrialLog()
        entering(.variant)
        let body: TrialBody
        do {
            body = try variant.makeTrial()
        } catch {
            log.recordError(error)
            var result = TrialResult(observation: nil, log: log, failure: "setup failed")
            result.setUp = false
            return result
        }
        defer { body.tearDown() }

        // Each worker meets the gate once, then takes iterations one at a time until none is left,
        // as `concurrentPerform(iterations:)` hands them out. With noise off, a worker binds one
        // counting hook for all its iterations: a hook made and bound per iteration cost about as
        // much as one of lesson 1's stores. With noise on, each iteration has its own hook, whose
        // decisions follow (seed, trial, iteration), and which the work it hands off keeps.
        let workers = min(iterations, cores)
        let gate = StartGate(parties: workers)
        let counter = IterationCounter(count: iterations)
        let tasks = DispatchGroup()
        // The hooks, kept so that the windows they saw can be added up once every task of the trial
        // is done. With noise off a hook only counts: an atomic add per window.
        let hooks = HookSlots(count: options.noise ? iterations : workers)
        defer { hooks.deallocate() }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            gate.arriveAndWait()
            func run(_ index: Int) {
                let iteration = Iteration(index: index, count: iterations, trial: trial, log: log)
                start(body.run, iteration, tasks: tasks, log: log)
            }
            if options.noise {
                while let index = counter.next() {
                    let hook = NoiseHook(seed: options.seed, trial: trial, iteration: index)
                    hooks.store(hook, at: index)
                    Race.$hook.withValue(hook) { run(index) }
                }
            } else {
                let hook = NoiseHook(seed: options.seed, trial: trial, iteration: worker, noise: false)
                hooks.store(hook, at: worker)
                Race.$hook.withValue(hook) {
                    while let index = counter.next() { run(index) }
                }
            }
        }
        tasks.wait()
        let windowsReached = hooks.windowsReached

        let info = TrialInfo(trial: trial, iterations: iterations)
        entering(.check)
        let checked = Result { try CallingThreadExecutor.run { try await body.check(info) } }
        switch checked {
        case .success(let observation):
            var result = TrialResult(observation: observation, log: log, failure: nil)
            result.windowsReached = windowsReached
            return result
        case .failure(let error):
            log.recordError(error)
            var result = TrialResult(observation: nil, log: log, failure: "check failed")
            result.windowsReached = windowsReached
            return result
        }
    }

    private static func start(_ run: TrialBody.Run, _ iteration: Iteration, tasks: DispatchGroup, log: TrialLog) {
        switch run {
        case .sync(let operation):
            do { try operation(iteration) } catch { log.recordError(error) }
        case .async(let operation):
            tasks.enter()
            Task {
                do { try await operation(iteration) } catch { log.recordError(error) }
                tasks.leave()
            }
        }
    }
}

/// One trial's numbers.
private struct TrialResult {
    /// Whether the trial's state was made, so that its iterations ran.
    var setUp = true
    var lostWrites = 0
    var duplicates = 0
    var inconsistencies = 0
    var errors = 0
    /// Race windows the trial's iterations (and their tasks) reached.
    var windowsReached = 0
    var outcome: String
    var meaning: String
    /// How far the result is from the correct one (`Observation.rank`, else `|observed − expected|`):
    /// the histogram's order.
    var distance = 0
    var samples: [String]
    var tallies: [Tally] = []

    init(observation: Observation?, log: TrialLog, failure: String?) {
        errors = log.errors + (observation?.errors ?? 0)
        distance = observation.map { $0.rank ?? abs($0.observed - $0.expected) } ?? 0
        inconsistencies = log.inconsistencies
        samples = log.sampleMessages
        if let observation {
            lostWrites = observation.lostWrites
            duplicates = observation.duplicates
            tallies = observation.tallies
            inconsistencies += observation.inconsistencies
            samples += observation.samples.prefix(max(0, TrialLog.sampleLimit - samples.count))
            if inconsistencies > observation.inconsistencies, !observation.isAnomalous {
                // The bad news first: the check's own outcome is good news here, and read first it
                // would hide that the row is forbidden.
                outcome = "inconsistent reads"
                meaning = "iterations saw inconsistent states"
            } else {
                outcome = observation.outcome
                meaning = observation.meaning
            }
        } else {
            outcome = failure ?? "error"
            meaning = samples.last ?? "the trial could not be checked"
        }
        if errors > 0, observation != nil {
            outcome += " + errors"
            meaning += "; \(errors) operation errors"
        }
    }

    /// Whether the trial had an error: then its other numbers are not evidence.
    var hadError: Bool { errors > 0 }

    /// Whether the trial is evidence of the bug: its signature showed, and nothing failed.
    var isAnomalous: Bool { !hadError && (lostWrites > 0 || duplicates > 0 || inconsistencies > 0) }
}

/// Run-wide sums of trial results.
///
/// Lost writes, duplicates and inconsistencies are summed over trials without errors only: in a
/// trial where a write failed (a full disk), a missing document is what the error did, and counting
/// it as a lost write would present the error as the bug's signature.
private struct Totals {
    /// The start of the sample that leads `samples` once a trial kept one (`Variant.leadingSample`).
    let leadingSample: String?
    var anomalousTrials = 0
    var errorTrials = 0
    /// Trials whose setup succeeded: only their iterations ran and count as operations.
    var setUpTrials = 0
    /// The first error message of the run, for the verdict's reason.
    var firstError: String?
    var lostWrites = 0
    var duplicates = 0
    var inconsistencies = 0
    var errors = 0
    var samples: [String] = []
    /// The trials' tallies, summed per phrase, in the order the phrases first came.
    var tallies: [Tally] = []

    mutating func add(_ trial: TrialResult) {
        if trial.isAnomalous { anomalousTrials += 1 }
        if trial.hadError {
            errorTrials += 1
            if firstError == nil {
                let sample = trial.samples.first { $0.hasPrefix("error: ") }
                firstError = sample.map { String($0.dropFirst("error: ".count)) } ?? trial.meaning
            }
        }
        if trial.setUp { setUpTrials += 1 }
        if !trial.hadError {
            lostWrites += trial.lostWrites
            duplicates += trial.duplicates
            inconsistencies += trial.inconsistencies
            tallies.add(trial.tallies)
        }
        errors += trial.errors
        // Distinct: a message every trial repeats would otherwise fill every slot.
        for sample in trial.samples where samples.count < 5 && !samples.contains(sample) { samples.append(sample) }
        if let leading = leadingSample, samples.first?.hasPrefix(leading) != true,
            let sample = trial.samples.first(where: { $0.hasPrefix(leading) })
        {
            samples.removeAll { $0 == sample }
            samples.insert(sample, at: 0)
            samples = Array(samples.prefix(5))
        }
    }
}

/// The iterations of one trial, handed out one at a time to the workers.
private final class IterationCounter: Sendable {
    private let count: Int
    private let taken = Atomic<Int>(0)

    init(count: Int) {
        self.count = count
    }

    /// The next iteration no worker took yet; nil once all are taken.
    func next() -> Int? {
        let index = taken.wrappingAdd(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }
}

/// The hooks of one trial, one slot per iteration index (noise on) or per worker (noise off). Each
/// slot is written once, by its own iteration or worker, and read only after `concurrentPerform`
/// returned and every task finished.
private final class HookSlots: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<NoiseHook?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    func store(_ hook: NoiseHook, at index: Int) {
        slots[index] = hook
    }

    /// The windows every hook saw, summed.
    var windowsReached: Int {
        slots.reduce(0) { $0 + ($1?.windowsReached ?? 0) }
    }

    func deallocate() {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}

/// Measures how likely each buggy variant of a lesson is to show its bug, strategy by strategy, side
/// by side in one run: the measurement behind `racelab power`.
///
/// Every buggy variant is run by the stress runner with noise off and with noise on, each in a
/// child process of its own with the same seed and workload, and, when the variant declares an
/// exploration, sampled by the schedule explorer's random and PCT strategies (each in a child process
/// too) for as many schedules as the runner runs trials. Each way of running gives one `DetectionRate`: the share of trials (or
/// schedules) that exposed the bug, its 95% Wilson interval, and the first one that exposed it.
public enum PowerMeasurement {
    /// The ways the stress runner runs each buggy variant, in report order.
    public static let runnerStrategies: [(name: String, noise: Bool)] = [("noise off", false), ("noise on", true)]

    /// The schedule explorer's sampling strategies, run on variants that declare an exploration:
    /// each execution is one sample, so its failure rate compares with the runner's per-trial rate.
    /// (Depth-first search is left out: its schedules are not independent samples.)
    public static let explorerStrategies: [ExplorationOptions.Strategy] = [.random, .pct]

    /// Measures every buggy variant of `lesson` (or only `variant`) with every strategy.
    ///
    /// Every strategy runs in a child process of `executable` (a `ChildRequest`), so it must be a
    /// `RaceLabTool`-based program that knows `lesson` (by default, the running one). A variant whose
    /// exploration cannot be set up gets no explorer rows.
    ///
    /// - Parameters:
    ///   - lesson: the lesson whose buggy variants are measured.
    ///   - variant: only this variant; nil for every buggy one.
    ///   - trials: trials per variant and runner strategy, and schedules per explorer strategy
    ///     (default: the lesson's workload for the variant).
    ///   - iterations: operations per trial (default: the lesson's).
    ///   - seed: the seed of the runner's noise and of the explorer's choices.
    ///   - timeout: seconds a runner strategy's child process may run before it is killed.
    ///   - executable: the program to run the variants in; nil for the running one.
    /// - Returns: the lesson's rates, variant by variant in the lesson's order, then strategy by
    ///   strategy: the runner's first, then the explorer's. No rates when the lesson has no buggy
    ///   variant.
    public static func measure(
        _ lesson: Lesson,
        variant: String? = nil,
        trials: Int? = nil,
        iterations: Int? = nil,
        seed: UInt64,
        timeout: Double,
        executable: String? = nil
    ) -> PowerReport.LessonPower {
        let executable = executable ?? ChildProcess.currentExecutable
        let buggy = lesson.variants.filter { $0.kind == .buggy && (variant == nil || variant == $0.name) }
        var rates: [DetectionRate] = []
        for variant in buggy {
            var workload = lesson.workload(for: variant)
            if let trials { workload.trials = trials }
            if let iterations { workload.iterations = iterations }
            for strategy in runnerStrategies {
                let request = IsolatedRun.Request(
                    lesson: lesson,
                    variant: variant,
                    options: StressRunner.Options(workload: workload, seed: seed, noise: strategy.noise),
                    timeout: timeout
                )
                rates.append(
                    DetectionRate(strategy: strategy.name, report: IsolatedRun.run(request, executable: executable))
                )
            }
            if variant.exploration != nil {
                for strategy in explorerStrategies {
                    let options = ExplorationOptions(strategy: strategy, schedules: workload.trials, seed: seed)
                    let rate = IsolatedExploration.measure(
                        variant,
                        lesson: lesson.number,
                        options: options,
                        strategyName: "explorer \(strategy.rawValue)",
                        executable: executable
                    )
                    if let rate { rates.append(rate) }
                }
            }
        }
        return PowerReport.LessonPower(number: lesson.number, slug: lesson.slug, title: lesson.title, rates: rates)
    }
}

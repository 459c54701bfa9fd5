import Foundation

extension RaceLabTool {
    /// The ways `power` runs each buggy variant under the stress runner, in report order.
    static let powerStrategies: [(name: String, noise: Bool)] = [("noise off", false), ("noise on", true)]

    /// The schedule explorer's sampling strategies, run on variants that declare an exploration:
    /// each execution is one sample, so its failure rate compares with the runner's per-trial rate.
    static let explorerStrategies: [ExplorationOptions.Strategy] = [.random, .pct]

    /// `racelab power`: for every buggy variant, the probability per trial of exposing its bug with
    /// each strategy, measured side by side in one run (same seed, same workload, each in a child).
    func power(_ request: RunRequest) -> ExitCode {
        ChildProcess.installInterruptHandler()
        let seed = request.seed ?? UInt64.random(in: 1...UInt64(UInt32.max))
        let executable = ChildProcess.currentExecutable
        var lessonsOut: [PowerReport.LessonPower] = []
        var allCompleted = true

        for number in request.lessons {
            guard let lesson = lessons.first(where: { $0.number == number }) else { continue }
            let buggy = lesson.variants.filter {
                $0.kind == .buggy && (request.variant == nil || request.variant == $0.name)
            }
            var rates: [DetectionRate] = []
            if !request.json {
                print("RaceLab power · lesson \(lesson.number): \(lesson.title)")
                print(
                    "seed \(seed) · runner strategies run the same workload in their own processes; explorer strategies"
                        + " run as many schedules as the runner runs trials · 95% Wilson intervals\n"
                )
            }
            for variant in buggy {
                var workload = lesson.workload(for: variant)
                if let trials = request.trials { workload.trials = trials }
                if let iterations = request.iterations { workload.iterations = iterations }
                for strategy in Self.powerStrategies {
                    let isolated = IsolatedRun.Request(
                        lesson: lesson,
                        variant: variant,
                        options: StressRunner.Options(workload: workload, seed: seed, noise: strategy.noise),
                        timeout: request.timeout
                    )
                    let report = IsolatedRun.run(isolated, executable: executable)
                    let rate = DetectionRate(strategy: strategy.name, report: report)
                    allCompleted = allCompleted && rate.completed
                    rates.append(rate)
                }
                if let exploration = variant.exploration {
                    for strategy in Self.explorerStrategies {
                        let options = ExplorationOptions(strategy: strategy, schedules: workload.trials, seed: seed)
                        guard let report = try? Explorer.explore(exploration, options: options) else { continue }
                        let rate = DetectionRate(
                            variant: variant.name,
                            strategy: "explorer \(strategy.rawValue)",
                            exploration: report
                        )
                        allCompleted = allCompleted && rate.completed
                        rates.append(rate)
                    }
                }
            }
            lessonsOut.append(.init(number: lesson.number, slug: lesson.slug, title: lesson.title, rates: rates))
            if !request.json {
                print(PowerTable(rates: rates).render())
                if buggy.isEmpty { print("(lesson \(lesson.number) has no buggy variant to measure)\n") }
            }
        }

        if request.json {
            let report = PowerReport(tool: name, seed: seed, lessons: lessonsOut)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
        }
        return allCompleted ? .success : .unexpectedVerdict
    }
}

/// The document `racelab power --json` prints.
struct PowerReport: Encodable {
    struct LessonPower: Encodable {
        var number: Int
        var slug: String
        var title: String
        var rates: [DetectionRate]
    }

    var tool: String
    var seed: UInt64
    var lessons: [LessonPower]
}

/// The terminal table of `racelab power`.
struct PowerTable {
    let rates: [DetectionRate]

    func render() -> String {
        let header = ["VARIANT", "STRATEGY", "EXPOSED", "P(PER TRIAL)", "95% CI", "FIRST AT", "TIME TO FIRST"]
        var rows = [header]
        for rate in rates {
            guard rate.completed else {
                rows.append([rate.variant, rate.strategy, rate.verdict.label, "", "", "", ""])
                continue
            }
            rows.append([
                rate.variant, rate.strategy,
                "\(grouped(rate.exposedTrials))/\(grouped(rate.trials))",
                percentage(rate.probability),
                "\(percentage(rate.confidenceInterval[0]))–\(percentage(rate.confidenceInterval[1]))",
                rate.firstExposureTrial.map {
                    "\(rate.strategy.hasPrefix("explorer") ? "schedule" : "trial") \(grouped($0))"
                }
                    ?? "never",
                rate.secondsToFirstExposure.map { String(format: "%.3f s", $0) } ?? "–",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    /// Percentages with enough digits for rare bugs: `0.05%`, `26.3%`.
    private func percentage(_ fraction: Double) -> String {
        let value = fraction * 100
        return value > 0 && value < 1 ? String(format: "%.2f%%", value) : String(format: "%.1f%%", value)
    }
}

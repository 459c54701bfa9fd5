import Foundation

/// Measures the matrix: type-checks each variant's compiler probe, then runs each variant in its
/// own process under ThreadSanitizer (when the build has it) and reads back what TSan logged for
/// exactly that process and the processes it started.
///
/// Variants run one after another, never side by side: on a machine with few cores a second TSan process
/// would change the first one's timing, and with it the runner's results.
package struct MatrixRunner {
    /// Everything a run needs, resolved from the command line.
    package struct Plan {
        var tool: String
        var lessons: [Lesson]
        var executable: String
        /// Whether `executable` is a ThreadSanitizer build.
        var sanitized: Bool
        /// Start every child without address randomization from the start (the probe of the
        /// executable already hit TSan's memory-mapping failure).
        var startWithoutRandomization: Bool
        var logFolder: URL
        /// The folder holding the lesson folders: a probe is `<probeFolder>/<NN-slug>/CompilerProbes/<variant>.swift`.
        var probeFolder: URL
        var swiftc: String?
        /// An `--expectations` file replacing the expectations the variants declare; nil to use those.
        var expectations: MatrixExpectations?
        var expectationsFile: String?
        /// The system whose declared expectations apply (nil: none do, every row is unmeasured).
        var system: ToolExpectation.OperatingSystem? = .current
        var seed: UInt64
        var noise: Bool
        var budget: Double
        var trialCap: Int?
        var timeout: Double
        /// Paths in reports are shown relative to this folder (the current one).
        var base: String

        package init(
            tool: String,
            lessons: [Lesson],
            executable: String,
            sanitized: Bool,
            startWithoutRandomization: Bool,
            logFolder: URL,
            probeFolder: URL,
            swiftc: String?,
            expectations: MatrixExpectations?,
            expectationsFile: String?,
            system: ToolExpectation.OperatingSystem? = .current,
            seed: UInt64,
            noise: Bool,
            budget: Double,
            trialCap: Int?,
            timeout: Double,
            base: String
        ) {
            self.tool = tool
            self.lessons = lessons
            self.executable = executable
            self.sanitized = sanitized
            self.startWithoutRandomization = startWithoutRandomization
            self.logFolder = logFolder
            self.probeFolder = probeFolder
            self.swiftc = swiftc
            self.expectations = expectations
            self.expectationsFile = expectationsFile
            self.system = system
            self.seed = seed
            self.noise = noise
            self.budget = budget
            self.trialCap = trialCap
            self.timeout = timeout
            self.base = base
        }
    }

    let plan: Plan
    /// The launcher prefix in use; becomes `setarch <machine> -R` once TSan refused to start.
    private var launcher: [String] = []

    package init(plan: Plan) {
        self.plan = plan
        if plan.startWithoutRandomization, let prefix = ThreadSanitizer.noRandomizationPrefix { launcher = prefix }
    }

    /// Runs every variant of every planned lesson; `progress` gets one line per variant as it ends.
    package mutating func run(progress: (String) -> Void, whileWaiting: (String, Double) -> Void) -> ToolMatrix {
        let clock = ContinuousClock()
        let started = clock.now
        var verdicts: [String: CompilerVerdict] = [:]
        for lesson in plan.lessons {
            for variant in lesson.variants {
                verdicts[key(lesson, variant)] = compilerVerdict(lesson, variant)
            }
        }
        var rows: [MatrixRow] = []
        for lesson in plan.lessons {
            for variant in lesson.variants {
                let row = measure(lesson, variant, compiler: verdicts[key(lesson, variant)]!) { elapsed in
                    whileWaiting("\(lesson.number) \(lesson.slug) · \(variant.name)", elapsed)
                }
                rows.append(row)
                let cells = MatrixText.cells(row)
                progress(
                    "\(row.passed ? "✓" : "✗") \(lesson.number) \(lesson.slug) · \(variant.name): runner \(cells.runner), "
                        + "TSan \(cells.tsan), Swift 6 \(row.compiler.outcome.rawValue) "
                        + "(\(String(format: "%.1f", row.runner.wallSeconds)) s)"
                )
            }
        }
        let settings = ToolMatrix.Settings(
            seed: plan.seed,
            noise: plan.noise,
            budgetSeconds: plan.budget,
            trialCap: plan.trialCap,
            threadSanitizer: plan.sanitized,
            executable: plan.executable,
            logFolder: plan.sanitized ? displayPath(plan.logFolder.path) : nil,
            compilerCommand: plan.swiftc.map { ([$0] + CompilerProbe.flags).joined(separator: " ") },
            probeFolder: displayPath(plan.probeFolder.path),
            expectationsFile: plan.expectationsFile,
            operatingSystem: plan.system?.rawValue
        )
        return ToolMatrix(
            tool: plan.tool,
            settings: settings,
            rows: rows,
            notes: notes(rows),
            wallSeconds: (clock.now - started).seconds
        )
    }

    private func key(_ lesson: Lesson, _ variant: Variant) -> String {
        "\(lesson.number)/\(variant.name)"
    }

    private func isCalibration(_ lesson: Lesson) -> Bool {
        lesson.number == ThreadSanitizerCalibration.lesson.number
            && lesson.slug == ThreadSanitizerCalibration.lesson.slug
    }

    private func compilerVerdict(_ lesson: Lesson, _ variant: Variant) -> CompilerVerdict {
        if isCalibration(lesson) { return .notMeasured("calibration of TSan, not a lesson's pattern") }
        let probe = CompilerProbe.path(in: plan.probeFolder, lesson: lesson, variant: variant.name)
        guard FileManager.default.fileExists(atPath: probe.path) else { return .notMeasured("no probe") }
        guard let swiftc = plan.swiftc else {
            return .notMeasured("no swiftc found (set SWIFTC)", probe: displayPath(probe.path))
        }
        return CompilerProbe.check(probe, swiftc: swiftc, displayPath: displayPath(probe.path))
    }

    /// Runs one variant (again without address randomization if TSan could not start) and builds its row.
    private mutating func measure(
        _ lesson: Lesson,
        _ variant: Variant,
        compiler: CompilerVerdict,
        whileWaiting: (Double) -> Void
    ) -> MatrixRow {
        var workload = lesson.workload(for: variant)
        if let cap = plan.trialCap { workload.trials = min(workload.trials, cap) }
        let request = IsolatedRun.Request(
            lesson: lesson,
            variant: variant,
            options: StressRunner.Options(
                workload: workload,
                seed: plan.seed,
                noise: plan.noise,
                timeBudget: plan.budget
            ),
            timeout: plan.timeout
        )
        let prefix = "\(CompilerProbe.lessonFolderName(lesson)).\(variant.name)"
        let logPath = plan.logFolder.appendingPathComponent(prefix).path
        var environment: [String: String] = [:]
        if plan.sanitized {
            environment["TSAN_OPTIONS"] = ThreadSanitizer.options(
                logPath: logPath,
                inherited: ProcessInfo.processInfo.environment["TSAN_OPTIONS"]
            )
        }

        SanitizerLog.remove(folder: plan.logFolder, prefix: prefix)
        var report = IsolatedRun.run(
            request,
            executable: plan.executable,
            environment: environment,
            launcher: launcher,
            whileWaiting: whileWaiting
        )
        var log = SanitizerLog.read(folder: plan.logFolder, prefix: prefix, relativeTo: plan.base)
        if plan.sanitized, launcher.isEmpty, refusedToStart(log, report),
            let prefixCommand = ThreadSanitizer.noRandomizationPrefix
        {
            // TSan could not place its shadow memory. Without address randomization it can; so run
            // this variant again that way, and every later one from the start.
            launcher = prefixCommand
            SanitizerLog.remove(folder: plan.logFolder, prefix: prefix)
            report = IsolatedRun.run(
                request,
                executable: plan.executable,
                environment: environment,
                launcher: launcher,
                whileWaiting: whileWaiting
            )
            log = SanitizerLog.read(folder: plan.logFolder, prefix: prefix, relativeTo: plan.base)
        }

        let tsan: MatrixRow.TSanCell
        if plan.sanitized {
            let fatal = refusedToStart(log, report) || log.failures.contains { $0.contains("FATAL:") }
            let reports = log.distinctReports
            tsan = MatrixRow.TSanCell(
                outcome: fatal ? .failed : (reports.isEmpty ? .silent : .reported),
                reports: reports,
                warnings: log.warnings.count,
                processes: log.processes,
                logs: log.files.map(displayPath),
                failures: log.failures + report.stderrTail.filter { $0.contains("FATAL: ThreadSanitizer") },
                ranWithoutAddressRandomization: !launcher.isEmpty
            )
        } else {
            tsan = .notMeasured
        }
        let role: MatrixRow.Role = isCalibration(lesson) ? .calibration : (variant.kind == .buggy ? .buggy : .fixed)
        let expectation = expectation(lesson, variant)
        let runner = MatrixRow.RunnerCell(report)
        return MatrixRow(
            lesson: lesson.number,
            slug: lesson.slug,
            variant: variant.name,
            role: role,
            summary: variant.summary,
            runner: runner,
            tsan: tsan,
            compiler: compiler,
            expectation: expectation,
            problems: MatrixRow.problems(
                role: role,
                runner: runner,
                tsan: tsan,
                compiler: compiler,
                expectation: expectation
            )
        )
    }

    /// The expectation the row is checked against: the `--expectations` file's line when a file was
    /// given, else the one the variant declares for this system. Nil (unmeasured) on a system
    /// `ToolExpectation.OperatingSystem` does not name, where nothing was measured.
    func expectation(_ lesson: Lesson, _ variant: Variant) -> ToolExpectation? {
        guard let system = plan.system else { return nil }
        guard let file = plan.expectations else { return variant.toolExpectation(on: system) }
        return file.entry(lesson: lesson.slug, variant: variant.name)?
            .toolExpectation(file: plan.expectationsFile ?? "the expectations file", system: system)
    }

    /// TSan gave up before `main` because of the address layout (in its log, or on stderr when the
    /// log could not be opened yet).
    private func refusedToStart(_ log: SanitizerLog, _ report: VariantReport) -> Bool {
        log.failedOnMemoryMapping
            || report.stderrTail.contains { $0.contains(ThreadSanitizer.unexpectedMappingMessage) }
    }

    /// Variants with no expectation (unmeasured rows), expectations that name no variant of this run
    /// (stale lines), and compiler probes that name no variant.
    private func notes(_ rows: [MatrixRow]) -> [String] {
        var notes: [String] = []
        let missing = rows.filter(\.unmeasured).map { "\($0.slug) \($0.variant)" }.joined(separator: ", ")
        if !missing.isEmpty {
            let place =
                plan.expectations == nil
                ? "measured on \(plan.system?.description ?? "this system")"
                : "in \(plan.expectationsFile ?? "the file")"
            notes.append("unmeasured: no expectation \(place) for: \(missing) (only the built-in rules were checked)")
        }
        if plan.expectations == nil, let system = plan.system {
            let ranRows = Set(rows.map { "\($0.slug)/\($0.variant)" })
            for lesson in plan.lessons {
                for variant in lesson.variants where ranRows.contains("\(lesson.slug)/\(variant.name)") {
                    if let reason = variant.unmeasuredReasons[system] {
                        notes.append(
                            "unmeasured on \(system) by declaration: \(lesson.slug) \(variant.name): \(reason)"
                        )
                    }
                }
            }
        }
        let ranLessons = Set(plan.lessons.map(\.slug))
        let ran = Set(rows.map { "\($0.slug)/\($0.variant)" })
        let file = plan.expectationsFile ?? "the expectations file"
        for entry in plan.expectations?.entries ?? []
        where ranLessons.contains(entry.lesson) && !ran.contains("\(entry.lesson)/\(entry.variant)") {
            notes.append(
                "\(file) line \(entry.line): lesson \(entry.lesson) has no variant '\(entry.variant)' (stale line?)"
            )
        }
        for lesson in plan.lessons where !isCalibration(lesson) {
            let names = Set(lesson.variants.map(\.name))
            for probe in CompilerProbe.probeNames(in: plan.probeFolder, lesson: lesson) where !names.contains(probe) {
                let path = CompilerProbe.path(in: plan.probeFolder, lesson: lesson, variant: probe).path
                notes.append("\(displayPath(path)) names no variant of lesson \(lesson.slug)")
            }
        }
        return notes
    }

    private func displayPath(_ path: String) -> String {
        path.hasPrefix(plan.base + "/") ? String(path.dropFirst(plan.base.count + 1)) : path
    }
}

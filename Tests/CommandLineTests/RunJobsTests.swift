import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// `run --jobs N` runs variants side by side, but what it reports does not depend on N: the same
/// reports in the same order, the same verdicts, the same exit status.
@Suite("run --jobs: variants side by side, the same report")
struct RunJobsTests {
    /// `output` without what differs from run to run even with one seed: each variant's wall time
    /// and rate, and how long a process that left no report ran.
    static func withoutTimings(_ output: String) -> String {
        output.replacingOccurrences(
            of: #"in [0-9.,]+ s \([0-9.,]+ operations/s\)"#,
            with: "in … s (… operations/s)",
            options: .regularExpression
        ).replacingOccurrences(of: #"after [0-9.,]+ s"#, with: "after … s", options: .regularExpression)
    }

    /// The variants' verdicts in the order a `run --json` document lists them.
    static func verdicts(_ output: Executable.Output) throws -> [String] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "stdout is not one JSON document: \(output.stdout)"
        )
        let lessons = try #require(document["lessons"] as? [[String: Any]])
        return lessons.flatMap { ($0["variants"] as? [[String: Any]]) ?? [] }.map {
            "\($0["name"] as? String ?? "?"): \($0["verdict"] as? String ?? "?")"
        }
    }

    @Test(
        "a fixture lesson prints the same report and exits alike with --jobs 2 as with --jobs 1",
        arguments: [["synthetic"], ["faults", "--timeout", "10"]]
    )
    func sameReport(lesson: [String]) async throws {
        let arguments = ["run"] + lesson + ["--seed", "3"]
        let one = try await Executable.fixtures.run(arguments + ["--jobs", "1"])
        let two = try await Executable.fixtures.run(arguments + ["--jobs", "2"])
        #expect(two.status == one.status)
        #expect(Self.withoutTimings(two.stdout) == Self.withoutTimings(one.stdout))
        // The faults lesson's crashes and timeout fail the run; the synthetic lesson passes.
        #expect(one.status == (lesson[0] == "faults" ? 1 : 0), "stderr: \(one.stderr)")
        #expect(two.stderr.contains("racelab-fixtures: --jobs 2: "))
        #expect(!one.stderr.contains("--jobs"))
    }

    @Test("a lesson gives the same verdicts and exit status with --jobs 2 as with --jobs 1")
    func sameVerdicts() async throws {
        let arguments = ["run", "1", "--trials", "4", "--iterations", "300", "--seed", "99", "--json"]
        let one = try await Executable.racelab.run(arguments + ["--jobs", "1"])
        let two = try await Executable.racelab.run(arguments + ["--jobs", "2"])
        #expect(one.status == 0, "stderr: \(one.stderr)")
        #expect(two.status == one.status, "stderr: \(two.stderr)")
        #expect(try Self.verdicts(one) == ["buggy: reproduced", "fixed: clean", "actor: clean"])
        #expect(try Self.verdicts(two) == Self.verdicts(one))
    }

    @Test("--jobs outside 1 to 64 is refused in one line with exit status 2", arguments: ["0", "65", "two", "-1"])
    func badJobs(value: String) async throws {
        let output = try await Executable.racelab.run("run", "1", "--jobs", value)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        let first = try #require(output.stderr.split(separator: "\n").first)
        #expect(first == "racelab: error: --jobs must be an integer from 1 to 64, got '\(value)'")
    }

    @Test("the variants run at once are as many as asked, but no more than the idle cores, and at least one")
    func width() {
        let tool = RaceLabTool(lessons: [])
        #expect(SystemLoad.Cores(total: 2, load: 0.3).idle == 2)
        #expect(SystemLoad.Cores(total: 2, load: 0.6).idle == 1)
        #expect(SystemLoad.Cores(total: 2, load: 3.8).idle == 0)
        #expect(SystemLoad.Cores(total: 8, load: nil).idle == 0)
        #expect(tool.runWidth(jobs: 2, cores: .init(total: 2, load: 0.3)) == 2)
        #expect(tool.runWidth(jobs: 4, cores: .init(total: 2, load: 0.3)) == 2)
        #expect(tool.runWidth(jobs: 8, cores: .init(total: 8, load: 2.2)) == 6)
        #expect(tool.runWidth(jobs: 2, cores: .init(total: 2, load: 3.8)) == 1)
        #expect(tool.runWidth(jobs: 2, cores: .init(total: 2, load: nil)) == 1)
    }

    @Test("the system gives a load average, and the idle cores are within the cores")
    func systemLoad() {
        let cores = SystemLoad.cores()
        #expect(cores.total >= 1)
        #expect(cores.load != nil)
        #expect((0...cores.total).contains(cores.idle))
    }
}

/// `IsolatedRun.run(_:width:...)` itself, with as many children at once as asked whatever the
/// machine's load, against `racelab-fixtures`, whose variants have outcomes fixed in advance.
@Suite("variants in child processes side by side, reported in order")
struct InOrderRunTests {
    /// The parent's side of fixture variants of `racelab-fixtures` (lessons 1 and 2): the child runs
    /// its own, by lesson number and variant name; the parent needs each one's kind and crash rule.
    static let requests: [IsolatedRun.Request] = {
        func lesson(_ number: Int, _ variants: [Variant]) -> Lesson {
            Lesson(
                number: number,
                slug: "fixture-\(number)",
                title: "fixture",
                summary: "fixture",
                workload: Workload(trials: 10, iterations: 100),
                variants: variants
            )
        }
        let synthetic = lesson(
            1,
            [
                Variant.counting(name: "drops-every-fourth", kind: .buggy),
                Variant.counting(name: "clean", kind: .fixed),
                Variant.counting(name: "odd-trials-inconsistent", kind: .buggy),
            ]
        )
        let faults = lesson(
            2,
            [
                Variant.counting(name: "traps-as-its-bug", kind: .buggy, crashMeansReproduced: true),
                Variant.counting(name: "exits-early", kind: .fixed),
            ]
        )
        let options = StressRunner.Options(workload: Workload(trials: 10, iterations: 100), seed: 5, noise: true)
        return [synthetic, faults].flatMap { lesson in
            lesson.variants.map { IsolatedRun.Request(lesson: lesson, variant: $0, options: options, timeout: 60) }
        }
    }()

    /// What each report says, in the order delivered, with the indexes delivered. Run and waited for
    /// on a thread of its own, out of the cooperative pool.
    static func run(
        width: Int,
        stopped: @escaping @Sendable () -> Bool = { false }
    ) async -> (
        indexes: [Int], reports: [String?]
    ) {
        await onOwnThread { () -> (indexes: [Int], reports: [String?]) in
            var indexes: [Int] = []
            var reports: [String?] = []
            IsolatedRun.run(requests, width: width, executable: Executable.fixtures.path, stopped: stopped) {
                index,
                report in
                indexes.append(index)
                reports.append(
                    report.map {
                        "\($0.name) \($0.verdict) trials \($0.trials) lost \($0.lostWrites) inconsistent \($0.inconsistencies)"
                    }
                )
            }
            return (indexes, reports)
        }
    }

    @Test("several at a time deliver every report in order, the same as one at a time", arguments: [2, 3, 64])
    func sameAsOneAtATime(width: Int) async {
        let one = await Self.run(width: 1)
        let many = await Self.run(width: width)
        #expect(one.indexes == Array(Self.requests.indices))
        #expect(many.indexes == one.indexes)
        #expect(many.reports == one.reports)
        #expect(
            one.reports == [
                "drops-every-fourth reproduced trials 10 lost 250 inconsistent 0",
                "clean clean trials 10 lost 0 inconsistent 0",
                "odd-trials-inconsistent reproduced trials 10 lost 0 inconsistent 5",
                "traps-as-its-bug reproduced trials 0 lost 0 inconsistent 0",
                "exits-early crashed trials 0 lost 0 inconsistent 0",
            ]
        )
    }

    @Test("once stopped, no child starts and every request is delivered, in order, without a report")
    func stopped() async {
        for width in [1, 3] {
            let run = await Self.run(width: width, stopped: { true })
            #expect(run.indexes == Array(Self.requests.indices))
            #expect(run.reports.allSatisfy { $0 == nil })
        }
    }
}

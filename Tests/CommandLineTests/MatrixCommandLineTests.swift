import RaceLab
import Testing

@testable import RaceLabCommandLine

@Suite("The matrix command and --junit on the command line")
struct MatrixCommandLineTests {
    let parser = ArgumentParser(lessons: [
        Synthetic.lesson(1, "synthetic", [Synthetic.clean, Synthetic.dropping(every: 2)]),
        Synthetic.lesson(2, "other", [Synthetic.clean]),
    ])

    @Test("with no lesson, or 'all', the matrix covers every lesson and the TSan calibration")
    func everyLesson() throws {
        let all = MatrixRequest(lessons: [1, 2], calibration: true)
        #expect(try parser.parse(["matrix"]) == .request(all))
        #expect(try parser.parse(["matrix", "all"]) == .request(all))
        #expect(try parser.parse(["matrix", "synthetic"]) == .request(MatrixRequest(lessons: [1])))
    }

    @Test("the matrix's options")
    func options() throws {
        var expected = MatrixRequest(lessons: [2])
        expected.trials = 5
        expected.budget = 2.5
        expected.seed = 16
        expected.noise = false
        expected.timeout = 60
        expected.expectations = "e.txt"
        expected.probes = "probes"
        expected.logs = "logs"
        expected.executable = "bin/racelab"
        expected.json = true
        expected.junit = "out.xml"
        #expect(
            try parser.parse([
                "matrix", "2", "--trials", "5", "--budget", "2.5", "--seed", "0x10", "--noise", "off", "--timeout",
                "60",
                "--expectations", "e.txt", "--probes", "probes", "--logs", "logs", "--executable", "bin/racelab",
                "--json",
                "--junit=out.xml",
            ]) == .request(expected)
        )
        #expect(try parser.parse(["matrix", "--help"]) == .help(MatrixRequest.descriptor))
    }

    @Test(
        "bad matrix input is refused with the matrix's usage",
        arguments: [
            (["matrix", "9"], "unknown lesson '9'; lessons are: 1 (synthetic), 2 (other)"),
            (["matrix", "1", "2"], "one lesson at a time (got '1' and '2'); use 'all' for every lesson"),
            (["matrix", "--budget", "0"], "--budget must be a number of seconds from 0.1 to 604800 (7 days), got '0'"),
            (["matrix", "--variant", "x"], "unknown option '--variant' for 'matrix'"),
        ]
    )
    func refused(arguments: [String], message: String) {
        let error = parser.refusal(arguments)
        #expect(error?.message == message)
        #expect(error?.command == MatrixRequest.descriptor)
    }

    @Test("run takes --junit FILE; power does not")
    func junitOnRun() throws {
        var request = RunRequest(selection: StressSelection(lessons: [1]))
        request.junit = "report.xml"
        #expect(try parser.parse(["run", "1", "--junit", "report.xml"]) == .request(request))
        #expect(throws: UsageError.self) { try parser.parse(["power", "1", "--junit", "report.xml"]) }
    }

    @Test("a child's request, its time budget and first trial included, is read back as written; nothing else is")
    func childRequestRoundTrip() throws {
        let run = ChildRequest(
            lesson: 1,
            variant: "clean",
            job: .run(workload: Workload(trials: 3, iterations: 4), seed: 5, noise: true, budget: 1.5, firstTrial: 2),
            channel: "/tmp/channel"
        )
        #expect(try parser.parse(run.commandLine()) == .request(run))
        let explore = ChildRequest(
            lesson: 0,
            variant: "mutex",
            job: .explore(
                options: ExplorationOptions(strategy: .pct, threads: 3, seed: 9, marks: false),
                replay: "2:0.1",
                states: true
            ),
            channel: "/tmp/channel"
        )
        #expect(try parser.parse(explore.commandLine()) == .request(explore))
        for arguments in [["_child"], ["_child", "{}"], ["_child", "not json"], try run.commandLine() + ["extra"]] {
            #expect(parser.refusal(arguments)?.message == "_child is internal to racelab")
        }
        #expect(parser.refusal(["_run-variant", "1", "clean"])?.message == "unknown command '_run-variant'")
    }

    @Test("a worker's request is read back as it was written; a known lesson and worker are required")
    func workerRequestRoundTrip() throws {
        let lesson = Lesson(
            number: 4,
            slug: "workers",
            title: "t",
            summary: "s",
            workload: Workload(trials: 1, iterations: 1),
            variants: [Synthetic.clean],
            workers: [LessonWorker(name: "increment", summary: "s") { _ in }]
        )
        let parser = ArgumentParser(lessons: [lesson])
        let request = WorkerRequest(lesson: 4, worker: "increment", parent: 0, arguments: ["--file", "a b", ""])
        #expect(try parser.parse(request.commandLine()) == .request(request))
        let unknown = WorkerRequest(lesson: 4, worker: "decrement", parent: 0, arguments: [])
        #expect(parser.refusal(try unknown.commandLine())?.message == "lesson 4 has no worker 'decrement'")
        for arguments in [["_worker", "4", "increment", "0"], ["_worker"], ["_worker", "{}"]] {
            #expect(parser.refusal(arguments)?.message == "_worker is internal to racelab")
        }
    }
}

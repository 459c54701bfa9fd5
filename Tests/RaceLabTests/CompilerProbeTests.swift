import Foundation
import Testing

@testable import RaceLab

@Suite("The Swift 6 compiler as a measuring instrument")
struct CompilerProbeTests {
    /// The probe `variant` of lesson folder `lesson` in this checkout's `Lessons/`.
    static func probe(_ lesson: String, _ variant: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Lessons/\(lesson)/\(CompilerProbe.folderName)/\(variant).swift")
    }

    @Test("the first error of the compiler's output is the verdict's diagnostic, without its group")
    func firstError() {
        let output = """
            /tmp/p/buggy.swift:3:5: warning: var 'x' was never mutated
            /tmp/p/buggy.swift:11:16: error: reference to captured var 'didExecute' in concurrently-executing code [#SendableClosureCaptures]
             9 |     DispatchQueue.concurrentPerform(iterations: 10) { _ in
            /tmp/p/buggy.swift:13:9: error: mutation of captured var 'didExecute' in concurrently-executing code
            """
        let first = CompilerProbe.firstError(in: output)
        #expect(first?.location == "buggy.swift:11:16")
        #expect(first?.message == "reference to captured var 'didExecute' in concurrently-executing code")
        #expect(CompilerProbe.firstError(in: "all good\n") == nil)
    }

    @Test("probes live in the lesson's folder: <lessons>/<NN>-<slug>/CompilerProbes/<variant>.swift")
    func probePath() {
        let lesson = Lesson(
            number: 2,
            slug: "check-then-act",
            title: "t",
            summary: "s",
            workload: Workload(trials: 1, iterations: 1),
            variants: [Synthetic.clean]
        )
        #expect(
            CompilerProbe.path(in: URL(fileURLWithPath: "/p"), lesson: lesson, variant: "lock").path
                == "/p/02-check-then-act/CompilerProbes/lock.swift"
        )
        #expect(CompilerProbe.lessonFolderName(number: 12, slug: "x") == "12-x")
    }

    @Test(
        "lesson 2's captured flag is rejected with the compiler's message; lesson 1's actor is accepted (measured)",
        .enabled(if: CompilerProbe.locateCompiler() != nil, "needs swiftc")
    )
    func realCompiler() throws {
        let swiftc = try #require(CompilerProbe.locateCompiler())
        let rejected = CompilerProbe.check(Self.probe("02-check-then-act", "buggy"), swiftc: swiftc)
        #expect(rejected.outcome == .rejected)
        #expect(rejected.diagnostic == "reference to captured var 'didExecute' in concurrently-executing code")
        #expect(rejected.diagnosticLocation?.hasPrefix("buggy.swift:") == true)
        #expect(CompilerProbe.check(Self.probe("01-subscript-race", "actor"), swiftc: swiftc).outcome == .accepted)
        #expect(CompilerProbe.check(Self.probe("01-subscript-race", "missing"), swiftc: swiftc).outcome == .notMeasured)
    }

    @Test(
        "lesson 4's coordinated probe, the article's FileCoordinator, is rejected for its static map (measured)",
        .enabled(if: CompilerProbe.locateCompiler() != nil, "needs swiftc")
    )
    func articleFileCoordinator() throws {
        let swiftc = try #require(CompilerProbe.locateCompiler())
        let probe = Self.probe("04-coordinator-locking", "coordinated")
        // The lesson's README cites this probe for the article's `private static var queues`.
        let check = CompilerProbe.check(probe, swiftc: swiftc)
        #expect(check.outcome == .rejected)
        #expect(
            check.diagnostic
                == "static property 'queues' is not concurrency-safe because it is nonisolated global shared mutable state"
        )
    }

    @Test(
        "a probe is type-checked with its folder's prelude, which is no probe itself (measured by compiling)",
        .enabled(if: CompilerProbe.locateCompiler() != nil, "needs swiftc")
    )
    func prelude() throws {
        let swiftc = try #require(CompilerProbe.locateCompiler())
        let lessons = try ScratchSpace.makeFolder(label: "probes")
        defer { ScratchSpace.remove(lessons) }
        let probes = lessons.appendingPathComponent("01-first/\(CompilerProbe.folderName)")
        try FileManager.default.createDirectory(at: probes, withIntermediateDirectories: true)
        let probe = probes.appendingPathComponent("buggy.swift")
        try Data("func count() { var total = 0; bump(&total) }\n".utf8).write(to: probe)
        // Without the prelude, `bump` is unknown.
        #expect(CompilerProbe.check(probe, swiftc: swiftc).diagnostic == "cannot find 'bump' in scope")

        try Data("func bump(_ value: inout Int) { value += 1 }\n".utf8)
            .write(to: probes.appendingPathComponent("\(CompilerProbe.preludeName).swift"))
        #expect(CompilerProbe.check(probe, swiftc: swiftc).outcome == .accepted)
        #expect(CompilerProbe.probeNames(inLessonFolder: lessons.appendingPathComponent("01-first")) == ["buggy"])
    }
}

import Foundation
import Testing

@testable import RaceLab

@Suite("The Swift 6 compiler as a measuring instrument")
struct CompilerProbeTests {
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
        "a captured var mutated in concurrentPerform is rejected; an actor is accepted (measured by compiling)",
        .enabled(if: CompilerProbe.locateCompiler() != nil, "needs swiftc")
    )
    func realCompiler() throws {
        let swiftc = try #require(CompilerProbe.locateCompiler())
        let folder = try ScratchSpace.makeFolder(label: "probes")
        defer { ScratchSpace.remove(folder) }
        let flag = folder.appendingPathComponent("flag.swift")
        try Data(
            """
            import Foundation
            func once(_ work: @Sendable () -> Void) {
                var didExecute = false
                DispatchQueue.concurrentPerform(iterations: 4) { _ in
                    guard !didExecute else { return }
                    work()
                    didExecute = true
                }
            }
            """.utf8
        ).write(to: flag)
        let counter = folder.appendingPathComponent("actor.swift")
        try Data(
            """
            actor Counter {
                var value = 0
                func increment() { value += 1 }
            }
            func count(_ counter: Counter) async {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { await counter.increment() } }
                }
            }
            """.utf8
        ).write(to: counter)

        let rejected = CompilerProbe.check(flag, swiftc: swiftc)
        #expect(rejected.outcome == .rejected)
        #expect(rejected.diagnostic == "reference to captured var 'didExecute' in concurrently-executing code")
        #expect(rejected.diagnosticLocation == "flag.swift:5:16")
        #expect(CompilerProbe.check(counter, swiftc: swiftc).outcome == .accepted)
        #expect(
            CompilerProbe.check(folder.appendingPathComponent("missing.swift"), swiftc: swiftc).outcome == .notMeasured
        )
    }
}

import Testing

@testable import RaceLab

@Suite("Report lines wrapped for a projected terminal")
struct WrappingTests {
    @Test("a line is broken at spaces, each continuation hung under the first")
    func breaksAtSpaces() {
        let line = "  " + Array(repeating: "word", count: 40).joined(separator: " ")
        let lines = wrapped(line, width: 30)
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 30 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("    word") })
        #expect(lines.joined(separator: " ").split(separator: " ") == line.split(separator: " "))
    }

    @Test("a word longer than a line (a mangled symbol in a stack trace) is cut into pieces that fit")
    func cutsAWordLongerThanALine() {
        let symbol = "$s7RaceLab12StressRunnerO3run_7options8entering10afterTrial8progressAA13VariantReportV"
        let line = "    | frame " + symbol + " " + symbol
        let lines = wrapped(line, width: 40, hang: "    |   ")
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        let rest = lines.dropFirst().map { $0.dropFirst("    |   ".count) }
        #expect((lines[0].dropFirst(6) + rest.joined()).filter { $0 != " " } == ("frame" + symbol + symbol))
    }

    @Test("a comparison an invariant states stays on one line: no break inside `counter == threads`")
    func keepsAComparisonWhole() {
        let line = "  each thread increments the counter once; invariant: counter == threads"
        for width in 50...line.count - 1 {
            let lines = wrapped(line, width: width)
            #expect(lines.contains { $0.contains("counter == threads") }, "width \(width): \(lines)")
            #expect(lines.allSatisfy { $0.count <= width })
        }
    }

    @Test("a line that fits is left as it is")
    func leavesAShortLine() {
        #expect(wrapped("  short line", width: 100) == ["  short line"])
    }
}

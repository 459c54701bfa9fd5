import Foundation
import Testing

@testable import RaceLab

@Suite("A variant declared unmeasured on a system")
struct UnmeasuredDeclarationTests {
    @Test("keeps its reason, has no expectation there, and counts as a declaration")
    func declaration() {
        let variant = Synthetic.clean.unmeasured(on: .macOS, because: "written from the documentation")
        #expect(variant.unmeasuredReasons == [.macOS: "written from the documentation"])
        #expect(variant.toolExpectation(on: .macOS) == nil)
        #expect(variant.toolExpectation(on: .linux) == nil)
        #expect(variant.declaresToolExpectations)
        #expect(!Synthetic.clean.declaresToolExpectations)
    }

    @Test("an expectation on another system stays separate")
    func otherSystem() {
        let variant = Synthetic.clean
            .expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "measured")
            .unmeasured(on: .macOS, because: "not yet")
        #expect(variant.toolExpectation(on: .linux)?.reason == "measured")
        #expect(variant.unmeasuredReasons[.linux] == nil)
        #expect(variant.unmeasuredReasons[.macOS] == "not yet")
    }

    @Test("declaring a system both unmeasured and measured is refused")
    func bothRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = Synthetic.clean
                .unmeasured(on: .linux, because: "not yet")
                .expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "measured")
        }
    }
}

@Suite("A run's unmeasured variant")
struct UnmeasuredRunTests {
    static func report(_ name: String, _ kind: VariantKind, _ verdict: Verdict, unmeasured: String?) -> VariantReport {
        var report = VariantReport.stub(verdict: verdict, kind: kind, name: name)
        report.unmeasured = unmeasured
        return report
    }

    @Test("is reported but does not decide its lesson's verdict; a measured one still does")
    func doesNotDecide() {
        let measured = Self.report("buggy", .buggy, .reproduced, unmeasured: nil)
        let unmeasured = Self.report("mac-buggy", .buggy, .notReproduced, unmeasured: "not run on a Mac yet")
        let lesson = RunReport.LessonReport(number: 4, slug: "x", title: "t", variants: [measured, unmeasured])
        #expect(lesson.passed)
        let summary = TextReport().summary(lesson)
        #expect(summary.hasPrefix("lesson 4: buggy reproduced 1/1, 1 not counted on this system → PASS"), "\(summary)")
        let line = "not counted on this system, so this verdict does not decide PASS or FAIL"
        #expect(TextReport().variant(unmeasured).contains(line))
        let failing = Self.report("buggy", .buggy, .notReproduced, unmeasured: nil)
        #expect(!RunReport.LessonReport(number: 4, slug: "x", title: "t", variants: [failing, unmeasured]).passed)
    }
}

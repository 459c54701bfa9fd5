import Foundation
import Testing

@testable import RaceLab

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("JUnit XML for CI")
struct JUnitDocumentTests {
    @Test("one suite per lesson, one case per variant, a failure where the verdict is not the one its kind calls for")
    func runReport() throws {
        var buggy = VariantReport.stub(verdict: .notReproduced, kind: .buggy)
        buggy.name = "buggy"
        buggy.verdictReason = "the bug did not show in any of 10 trials"
        var fixed = VariantReport.stub(verdict: .clean, kind: .fixed)
        fixed.name = "fixed"
        let report = RunReport(
            tool: "racelab",
            seed: 1,
            noise: true,
            lessons: [
                .init(number: 1, slug: "subscript-race", title: "t", variants: [buggy, fixed])
            ]
        )
        let xml = JUnitDocument(run: report).xml()
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"<testsuites name="racelab" tests="2" failures="1""#))
        #expect(xml.contains(#"<testsuite name="lesson 1: subscript-race" tests="2" failures="1""#))
        #expect(xml.contains(#"<testcase classname="racelab.subscript-race" name="buggy [buggy]""#))
        #expect(
            xml.contains(
                #"<failure message="NOT REPRODUCED: the bug did not show in any of 10 trials" type="failure">"#
            )
        )
        #expect(xml.components(separatedBy: "<failure").count == 2)

        // Well-formed: Foundation's parser reads it back.
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse())
    }

    @Test("an interrupted run is a failure in JUnit too, even when every variant that finished passed")
    func interruptedRun() throws {
        var fixed = VariantReport.stub(verdict: .clean, kind: .fixed)
        fixed.name = "fixed"
        let lessons: [RunReport.LessonReport] = [
            .init(number: 1, slug: "subscript-race", title: "t", variants: [fixed])
        ]
        let finished = JUnitDocument(run: RunReport(tool: "racelab", seed: 1, noise: true, lessons: lessons)).xml()
        #expect(!finished.contains("<failure"))
        let report = RunReport(tool: "racelab", seed: 1, noise: true, lessons: lessons, interrupted: "SIGINT")
        let xml = JUnitDocument(run: report).xml()
        #expect(xml.contains(#"<testsuites name="racelab" tests="2" failures="1""#))
        #expect(xml.contains(#"<testsuite name="run" tests="1" failures="1""#))
        #expect(xml.contains(#"<testcase classname="racelab.run" name="interrupted""#))
        #expect(xml.contains(#"<failure message="interrupted by SIGINT: "#))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }

    @Test("text from variants and compilers is escaped, and characters XML forbids are dropped")
    func escaping() {
        #expect(
            xmlEscaped(#"capture of 'self' in a "@Sendable" <closure> & more"#)
                == "capture of &apos;self&apos; in a &quot;@Sendable&quot; &lt;closure&gt; &amp; more"
        )
        #expect(xmlEscaped("a\u{1B}[Kb\tc\n") == "a[Kb\tc\n")
    }
}

import Foundation
import Testing

@testable import RaceLab

/// A lesson's own words for its counts travel in the JSON report, keyed by the variant report's
/// field, so that tools reading the report (the appendix tables) name a count as the run does.
@Suite("A run report's count labels")
struct RunReportCountLabelsTests {
    @Test("the lesson's labels are keyed by the count's field; a text-report name becomes the field's")
    func keyedByField() {
        let labels = RunReport.LessonReport.countLabels(
            fromLesson: ["inconsistencies": "overlaps", "lost writes": "lost saves"]
        )
        #expect(labels == ["inconsistencies": "overlaps", "lostWrites": "lost saves"])
        #expect(RunReport.LessonReport.countLabels(fromLesson: [:]).isEmpty)
    }

    @Test("the labels are written in the lesson's part and read back")
    func roundTrip() throws {
        let variant = VariantReport.stub(verdict: .reproduced, kind: .buggy, name: "uncoordinated")
        let lesson = RunReport.LessonReport(
            number: 4,
            slug: "coordinator-locking",
            title: "t",
            variants: [variant],
            countLabels: ["inconsistencies": "overlaps"]
        )
        let report = RunReport(tool: "racelab", seed: 1, noise: true, lessons: [lesson])
        let text = try report.jsonText()
        #expect(text.contains("\"countLabels\" : {\n        \"inconsistencies\" : \"overlaps\"\n      }"), "\(text)")
        let decoded = try JSONDecoder().decode(RunReport.self, from: Data(text.utf8))
        #expect(decoded == report)
    }

    @Test("a document without the field (written before it existed) reads as no labels")
    func absentField() throws {
        let lesson = RunReport.LessonReport(number: 1, slug: "s", title: "t", variants: [], countLabels: ["a": "b"])
        let text = try RunReport(tool: "racelab", seed: 1, noise: true, lessons: [lesson]).jsonText()
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var lessons = try #require(document["lessons"] as? [[String: Any]])
        lessons[0].removeValue(forKey: "countLabels")
        document["lessons"] = lessons
        let older = try JSONSerialization.data(withJSONObject: document)
        let decoded = try JSONDecoder().decode(RunReport.self, from: older)
        #expect(decoded.lessons.first?.countLabels == [:])
        #expect(decoded.lessons.first?.slug == "s")
    }
}

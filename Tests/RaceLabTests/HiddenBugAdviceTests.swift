import Testing

@testable import RaceLab

@Suite("A lesson's buggy variant that did not show its bug")
struct HiddenBugAdviceTests {
    static func lesson(_ variants: [VariantReport]) -> RunReport.LessonReport {
        RunReport.LessonReport(number: 6, slug: "x", title: "t", variants: variants)
    }

    static func hidden(noise: Bool) -> VariantReport {
        var report = VariantReport.stub(verdict: .notReproduced, kind: .buggy, name: "observer-on-main-queue")
        report.noise = noise
        return report
    }

    @Test("without noise: points to noise on and to the explorer")
    func noiseOff() {
        let advice = TextReport().hiddenBugAdvice(
            Self.lesson([Self.hidden(noise: false)]),
            explorable: ["observer-on-main-queue"]
        )
        #expect(
            advice == """
                  observer-on-main-queue: a race can stay hidden for a whole run; try noise on (the default), or
                    `racelab explore 6 --variant observer-on-main-queue`, which searches schedules rather than
                    waiting for one

                """
        )
    }

    @Test("the explore command names the tool as it was run, so that it runs as printed")
    func toolAsRun() {
        let advice = TextReport().hiddenBugAdvice(
            Self.lesson([Self.hidden(noise: false)]),
            explorable: ["observer-on-main-queue"],
            tool: ".build/release/racelab"
        )
        #expect(advice.contains("`.build/release/racelab explore 6 --variant observer-on-main-queue`"))
    }

    @Test("with noise and no exploration: points to more trials only")
    func noiseOnNotExplorable() {
        let advice = TextReport().hiddenBugAdvice(Self.lesson([Self.hidden(noise: true)]), explorable: [])
        #expect(advice == "  observer-on-main-queue: a race can stay hidden for a whole run; try more --trials\n")
    }

    @Test("is empty when every bug showed")
    func noAdvice() {
        let shown = VariantReport.stub(verdict: .reproduced, kind: .buggy)
        let clean = VariantReport.stub(verdict: .clean, kind: .fixed)
        #expect(TextReport().hiddenBugAdvice(Self.lesson([shown, clean]), explorable: ["v"]).isEmpty)
    }
}

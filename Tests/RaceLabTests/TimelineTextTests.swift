import Testing

@testable import RaceLab

@Suite("TimelineText: a schedule as a projector shows it")
struct TimelineTextTests {
    @Test("too wide for even columns: narrower ones in which the last thread's long label fits on its line")
    func longLabelOnTheLastThreadFits() {
        let steps = [
            ScheduleStep(thread: 0, operation: "update"),
            ScheduleStep(thread: 1, operation: "read detailedTitle"),
            ScheduleStep(thread: 2, operation: "public-properties barrier"),
            ScheduleStep(thread: 3, operation: "public-properties barrier"),
        ]
        let text = TimelineText.render(steps, threads: 4, indent: "    ")
        // Even columns (22 wide) would put thread 3's label at column 76 and break it; 21 fits it.
        #expect(
            text == """
                    step  thread 0             thread 1             thread 2             thread 3
                       1  update
                       2                       read detailedTitle
                       3                                            public-properties barrier
                       4                                                                 public-properties barrier
                """
        )
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= reportWidth })
    }

    @Test("a label longer than any column can hold goes on under itself, whole, in its thread's column")
    func labelTooLongForAnyColumnWraps() {
        let label = "a very long step label that no column of a four-thread table can hold on one line"
        let steps = [ScheduleStep(thread: 0, operation: "update"), ScheduleStep(thread: 3, operation: label)]
        let lines = TimelineText.render(steps, threads: 4, indent: "    ").split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= reportWidth })
        // Step 2's lines: its number, then the label's pieces, each in thread 3's column.
        let pieces = lines.dropFirst(2).map { $0.drop { $0 == " " || $0 == "2" } }
        #expect(pieces.count > 1)
        #expect(pieces.joined(separator: " ") == label)
    }

    @Test("an async program's columns and started units are tasks; others' are threads")
    func unitNamesTheColumnsAndTheLegend() {
        let steps = [
            ScheduleStep(thread: 0, operation: "call updateItem"), ScheduleStep(thread: 1, operation: "write"),
        ]
        #expect(
            TimelineText.render(steps, threads: 2, indent: "  ", unit: "task") == """
                  step  task 0           task 1
                     1  call updateItem
                     2                   write
                """
        )
        #expect(TimelineText.render(steps, threads: 2).hasPrefix("  step  thread 0         thread 1"))
        let started = SpawnedThread(thread: 2, parent: 0, name: "load")
        #expect(TimelineText.legend(started, unit: "task") == "task 2 is 'load', started by task 0")
        #expect(TimelineText.legend(started) == started.description)
    }

    @Test("the names of unmarked points are explained once they name a step, and only then")
    func unmarkedPointsLegend() {
        let marked = [ScheduleStep(thread: 0, operation: "call reloadItem")]
        #expect(VariantExploration.unmarkedPointsLine(marked) == nil)
        let unmarked =
            marked + [
                ScheduleStep(thread: 0, operation: "run actor queue"),
                ScheduleStep(thread: 1, operation: "resume load task"),
                ScheduleStep(thread: 2, operation: "start"),
            ]
        let line = VariantExploration.unmarkedPointsLine(unmarked)
        #expect(
            line == "  unmarked points: start = a task begins; resume = after an await; "
                + "run actor queue = an actor job"
        )
        #expect((line?.count ?? 0) <= 100)
    }
}

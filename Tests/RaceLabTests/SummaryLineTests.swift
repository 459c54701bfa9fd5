import Testing

@testable import RaceLab

/// A lesson's closing line after `run` and `explore`: a PASS of buggy variants alone says that
/// their bugs showing is what passed, so that it never reads as the code under test being correct.
@Suite("a lesson's summary line")
struct SummaryLineTests {
    @Test("a whole lesson's PASS is the word alone")
    func wholeLesson() {
        let line = TextReport().summaryLine(
            lesson: 3,
            buggy: (3, 3),
            shown: "reproduced",
            fixed: (5, 5),
            outcome: "PASS",
            deciding: []
        )
        #expect(line == "lesson 3: buggy reproduced 3/3, fixed clean 5/5 → PASS\n")
    }

    @Test(
        "a PASS of buggy variants alone says their bugs showing is what passed",
        arguments: [
            (1, "reproduced", "lesson 5: buggy reproduced 1/1 → PASS: the bug showed, as the lesson expects\n"),
            (2, "reproduced", "lesson 5: buggy reproduced 2/2 → PASS: the bugs showed, as the lesson expects\n"),
            (1, "found", "lesson 5: buggy found 1/1 → PASS: the bug was found, as the lesson expects\n"),
            (2, "found", "lesson 5: buggy found 2/2 → PASS: the bugs were found, as the lesson expects\n"),
        ]
    )
    func buggyAlone(count: Int, shown: String, expected: String) {
        let line = TextReport().summaryLine(
            lesson: 5,
            buggy: (count, count),
            shown: shown,
            fixed: (0, 0),
            outcome: "PASS",
            deciding: []
        )
        #expect(line == expected)
    }

    @Test("a FAIL of buggy variants alone is the word and the variant that decided it")
    func buggyAloneFails() {
        let line = TextReport().summaryLine(
            lesson: 5,
            buggy: (0, 1),
            shown: "reproduced",
            fixed: (0, 0),
            outcome: "FAIL",
            deciding: [("no-barrier", "NOT REPRODUCED")]
        )
        #expect(line == "lesson 5: buggy reproduced 0/1 → FAIL (no-barrier: not reproduced)\n")
    }
}

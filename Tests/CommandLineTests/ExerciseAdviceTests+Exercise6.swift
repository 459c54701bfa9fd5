import Foundation
import Testing

/// Exercise 6's torn writer: two writers run alone, one paused at its first race-window mark until
/// the other has finished, then one bounded snapshot. A writer that sets the title and the items in
/// two steps fails there whatever its reader does, and a reader that locks or retries its two looks
/// sends the participant to the writer's hint. A writer with no mark left pauses nowhere: that part
/// tested nothing and is reported UNTESTED, neither ok nor FAIL, and the check does not pass. In
/// `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// A planted file of exercise 6 (from its Exercise folder), the diagnosis and hint it must get,
    /// and what its writers-only line must say (a regular expression over the joined output).
    struct WriterCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var file: String
        var kind: String
        var hint: Int
        var writersLine: String
    }

    static let writersFail = #"FAIL\s+two writers at once leave one writer's whole version: "#
    static let writersTorn =
        writersFail + #"8 of 8 trials left a state no replace\(title:items:\) wrote, "#
        + #"e\.g\. the title of version \d+, the items of version \d+"#
    static let writersUntested =
        #"UNTESTED\s+two writers at once leave one writer's whole version: in none of 8 trials did a writer reach a "#
        + #"Race\.window mark within 1 s of calling replace\(title:items:\) \(on its thread or in work it "#
        + #"handed to a queue\), so none was paused while the other wrote"#

    @Test(
        "exercise 6: a writer that sets its two values apart fails with writers only, whatever the reader",
        .timeLimit(.minutes(20)),
        arguments: [
            WriterCase(
                testDescription: "a reader that looks at the title twice: it returns the torn state",
                file: "WrongFixes/RetryingReader.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersTorn
            ),
            WriterCase(
                testDescription: "a reader that retries until the items match a count: it loops, reported as such",
                file: "WrongFixes/CountCheckingReader.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersFail + #"in trial 1 of 8, snapshot\(\) had not returned \d+ s after the "#
                    + #"writers finished; it returned only after the checker's own whole "#
                    + #"replace\(title:items:\): it loops on a state no writer stored"#
            ),
            WriterCase(
                testDescription: "a lock around the reader's two looks only: torn states, the writer's hint",
                file: "WrongFixes/LockedReaderOnly.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersTorn
            ),
            WriterCase(
                testDescription: "a locked reader, the writer's mark deleted: untested, read from the code",
                file: "WrongFixes/LockedReaderNoMark.patch",
                kind: "writer-two-sets",
                hint: 3,
                writersLine: writersUntested
            ),
            WriterCase(
                testDescription: "the starter: torn there too, but its reader takes two bare looks: hint 1",
                file: "Starter/Playlist.swift",
                kind: "inconsistencies",
                hint: 1,
                writersLine: writersTorn
            ),
        ]
    )
    func exercise6TornWriter(_ planted: WriterCase) async throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let lines = try await Self.check(exercise: 6, Planted(exercise + planted.file), diagnosis: planted.kind)
        let text = Self.joined(lines)
        #expect(text.contains(try Regex(planted.writersLine)), "\(lines)")
        let readFromCode = "replace(title:items:) still sets the title and the items in two steps"
        #expect(text.contains(readFromCode) == (planted.kind == "writer-two-sets"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("  ok    two writers at once") }, "\(lines)")
        // A part that tested nothing says so: it is neither ok nor FAIL.
        #expect(
            text.contains(try Regex(Self.writersFail)) == (planted.writersLine != Self.writersUntested),
            "\(lines)"
        )
        // A reader that loops is never left to hang the check: the run with readers is not started.
        #expect(
            text.contains("not run: readers racing writers") == planted.file.hasSuffix("CountCheckingReader.patch"),
            "\(lines)"
        )
        // With no mark reached, what the code shows is said right under the untested line it explains.
        if planted.writersLine == Self.writersUntested {
            #expect(text.contains(try Regex(Self.writersUntested + #"\s+read from your code"#)), "\(lines)")
        }
        Self.expectNext(lines, hint: planted.hint, of: 7, in: "\(exercise)hints.md")
    }

    /// The solution's mark is before its lock; the barrier alternatives' is in a barrier block on a
    /// queue thread, not the writer's: both pause, and the other writer's replace returns meanwhile.
    /// A mark inside the lock keeps the other writer out: said in one clause, as what kept the
    /// writers apart (the pause's limit and the later trials' skipped pauses are not on the line).
    @Test(
        "exercise 6's solutions pass the writers-only check, each writer paused while the other wrote",
        arguments: [
            "Solution/Playlist.swift", "Alternatives/ConcurrentQueueBarrier.swift", "Alternatives/MarkInsideLock.patch",
            "Alternatives/AsyncBarrierMarkInside.swift",
        ]
    )
    func exercise6SolutionWriters(_ file: String) async throws {
        let text = try await Self.checkPasses(exercise: 6, Planted("Lessons/06-async-data-source/Exercise/" + file))
        let joined = Self.joined(text.split(separator: "\n").map(String.init))
        let insideLock = file.hasSuffix("MarkInsideLock.patch")
        // A pause inside the lock ends on its limit: said plainly as what keeps the writers apart,
        // not as a warning.
        let pauses =
            insideLock
            ? #"your lock kept them apart: the paused writer held it"#
            : #"one writer paused at its first Race\.window mark: in 8, until the other's "#
                + #"replace\(title:items:\) returned"#
        #expect(
            joined.contains(
                try Regex(#"ok\s+two writers at once leave one writer's whole version \(8 trials; "# + pauses + #"\)"#)
            ),
            "\(text)"
        )
        // A PASS with nothing wrong has no note under it.
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("  --") }, "\(text)")
        // A mark in a barrier block is reached on the queue's thread, where the stress run adds no
        // pause: said as where it runs, never as a mark the code no longer reaches.
        let spaced = joined.replacing(#/ +/#, with: " ")
        #expect(!spaced.contains("no longer reaches"), "\(text)")
        if file.contains("Barrier") {
            let elsewhere = "the marked window runs on another thread (a queue's), where the check adds no pause"
            #expect(spaced.ranges(of: elsewhere).count == 1, "\(text)")
        }
    }

    @Test(
        "exercise 6: a whole writer with no mark left is untested, not ok, and gets the hint on the mark",
        .timeLimit(.minutes(20))
    )
    func exercise6WriterWithoutMark() async throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let lines = try await Self.check(
            exercise: 6,
            .patch(exercise + "WrongFixes/SolutionWithoutMark.patch"),
            diagnosis: "untested"
        )
        let text = Self.joined(lines)
        #expect(text.contains(try Regex(Self.writersUntested)), "\(lines)")
        // The readers' run still ran, and found the pair whole: the only failure is the untested part.
        #expect(text.contains(#/ok\s+readers racing writers only ever see whole versions/#), "\(lines)")
        // Correct code is never called FAIL: the summary says what was not checked, and how to check it,
        // in the word of the requirement's line.
        #expect(!text.contains("FAIL") && !text.contains("NOT CHECKED"), "\(lines)")
        #expect(
            lines.contains("UNTESTED: put a Race.window mark back in replace(title:items:) (hint 6)"),
            "\(lines)"
        )
        Self.expectNext(lines, hint: 6, of: 7, in: "\(exercise)hints.md")
    }

    /// The solution's one value behind a concurrent queue with no barrier: its stores race in a
    /// window a few instructions wide, which the run shows only sometimes (a crash in reference
    /// counting or in the array's storage). Read from the code, `no-barrier` sends every outcome to
    /// the barrier's hint, and a run that showed nothing is checked with ThreadSanitizer, which
    /// reports the race: the check never passes.
    @Test(
        "exercise 6: a concurrent queue without a barrier fails, crash or not, and gets the barrier's hint",
        .timeLimit(.minutes(20))
    )
    func exercise6ConcurrentQueueWithoutBarrier() async throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let lines = try await Self.check(
            exercise: 6,
            .patch(exercise + "WrongFixes/ConcurrentQueueWithoutBarrier.patch"),
            diagnosis: "no-barrier"
        )
        // The reading is the harness's when the run saw torn versions, the script's after a crash
        // or a clean run (which then goes on under ThreadSanitizer): both name the queue and the
        // missing barrier.
        let text = Self.joined(lines)
        #expect(
            text.contains("a queue made with `attributes: .concurrent` and no `.barrier`")
                || text.contains("on a queue made `.concurrent`, with no `.barrier` and no lock"),
            "\(lines)"
        )
        Self.expectNext(lines, hint: 7, of: 7, in: "\(exercise)hints.md")
    }

    /// A planted file of exercise 6 (from its Exercise folder) whose diagnosis is read from its code,
    /// under the first requirement it fails: the diagnosis and hint it must get, what that reading
    /// says (a regular expression), the requirement whose `FAIL` line it sits under (nil when the
    /// run may crash before any requirement fails: the crash's explanation reads it then), what the
    /// output must show besides (regular expressions), and what it must never say.
    struct ReadingCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var file: String
        var kind: String
        var hint: Int
        var reading: String
        var failing: String?
        var shown: [String] = []
        var never: [String]
    }

    /// A whole writer (one lock around both stores, its mark inside) with a reader that takes the
    /// title and the items under two separate acquisitions of the lock (`withLock` twice, or
    /// `lock()`/`unlock()` twice): the writers alone leave whole versions, which clears the writer;
    /// the readers tear. Named as the reader's two looks, never as the writer's two sets. Hint 4.
    static let readerTwoLooks =
        #"read from your code: replace\(title:items:\) writes under one lock \(or in one barrier block\) "#
        + #"\(two writers at once left one "#
        + #"whole version\), but snapshot\(\) takes the title and the items under two separate locks"#

    /// A `Mutex` per property: the writer stores the title and the items under two separate locks,
    /// and the reader looks at them under two. Both are named, each with its hint, under the
    /// writers-only FAIL; never as a reader that "locks or retries its two looks". Hint 3 first.
    static let mutexPerProperty =
        #"read from your code: two replace\(title:items:\) calls at once left the items of one and the "#
        + #"title of the other: replace\(title:items:\) stores the title and the items under two separate "#
        + #"locks \(or queue blocks\), and a replace can land between them \(`writer-two-sets`, "#
        + #"hint 3\)\s+and snapshot\(\) takes the title and the items under two separate locks too: "#
        + #".*\(`reader-two-looks`, hint 4\)"#

    /// The starter's two sets moved into one `queue.sync` block on a queue made `.concurrent`, with
    /// no barrier and no lock: the two writers' blocks run at once and tear the playlist. Read from
    /// the code under that first FAIL as the queue's missing barrier, never as sets "under the lock"
    /// the code does not have, and not said again after the summary. Hint 7.
    static let concurrentQueueTwoSets =
        #"read from your code: replace\(title:items:\) stores in a block on a queue made `\.concurrent`"#

    @Test(
        "exercise 6: a fix whose reader or queue is read from the code is told so under its first FAIL",
        .timeLimit(.minutes(20)),
        arguments: [
            ReadingCase(
                testDescription: "a reader that locks each of its two looks with withLock: its looks, not the writer",
                file: "WrongFixes/ReaderTwoLockedLooks.patch",
                kind: "reader-two-looks",
                hint: 4,
                reading: readerTwoLooks,
                failing: "readers racing writers only ever see whole versions",
                shown: [#"ok\s+two writers at once leave one writer's whole version"#],
                never: ["writer-two-sets", "still sets the title and the items"]
            ),
            ReadingCase(
                testDescription: "a reader that locks each look with lock() and unlock(): the reader's looks too",
                file: "WrongFixes/ReaderLockUnlockLooks.patch",
                kind: "reader-two-looks",
                hint: 4,
                reading: readerTwoLooks,
                failing: "readers racing writers only ever see whole versions",
                shown: [#"ok\s+two writers at once leave one writer's whole version"#],
                never: ["writer-two-sets", "still sets the title and the items"]
            ),
            ReadingCase(
                testDescription: "a Mutex per property: the writer's two locks and the reader's two looks, both named",
                file: "WrongFixes/MutexPerProperty.patch",
                kind: "reader-two-looks",
                hint: 3,
                reading: mutexPerProperty,
                failing: "two writers at once leave one writer's whole version",
                shown: [#"FAIL\s+readers racing writers only ever see whole versions"#],
                never: ["locks or retries its two looks", "still sets the title and the items"]
            ),
            ReadingCase(
                testDescription: "two sets in a concurrent queue's sync block: the barrier's reading, said once",
                file: "WrongFixes/ConcurrentQueueTwoSets.patch",
                kind: "no-barrier",
                hint: 7,
                reading: concurrentQueueTwoSets,
                // The writers-only trials tear the playlist in every trial (a hand-over, not luck);
                // the stores' race may also crash the run, which the crash's own explanation reads.
                failing: nil,
                never: ["writer-two-sets", "under the lock", "Read from your code: a queue made with"]
            ),
        ]
    )
    func exercise6ReadFromCode(_ planted: ReadingCase) async throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let lines = try await Self.check(exercise: 6, Planted(exercise + planted.file), diagnosis: planted.kind)
        let text = Self.joined(lines)
        for phrase in planted.never {
            #expect(!text.contains(phrase), "\(phrase): \(lines)")
        }
        for pattern in planted.shown {
            #expect(text.contains(try Regex(pattern)), "\(pattern): \(lines)")
        }
        // The reading sits under the first requirement that failed, and is said there only.
        let first = lines.firstIndex { $0.hasPrefix("  FAIL") }
        if let failing = planted.failing {
            #expect(first.map { lines[$0].hasPrefix("  FAIL  " + failing) } == true, "\(lines)")
        }
        if let first {
            let next = lines[(first + 1)...].firstIndex { $0.hasPrefix("  FAIL") || $0.hasPrefix("FAIL") }
            let block = Self.joined(Array(lines[first..<(next ?? lines.endIndex)]))
            #expect(block.contains(try Regex(planted.reading)), "\(lines)")
        }
        #expect(text.matches(of: try Regex(planted.reading)).count <= 1, "\(lines)")
        Self.expectNext(lines, hint: planted.hint, of: 7, in: "\(exercise)hints.md")
    }

    /// The same value stored with a plain `queue.async` on that queue: a `queue.sync` read right
    /// after it does not wait for the store. Read from the code, under the first FAIL that shows a
    /// replace missing from the snapshot after it, and never as two sets the code does not have;
    /// a run whose stores all landed in time is checked with ThreadSanitizer. Hint 7 either way.
    @Test(
        "exercise 6: an async store without a barrier gets the barrier's hint, never the two-sets diagnosis",
        .timeLimit(.minutes(20))
    )
    func exercise6AsyncStoreWithoutBarrier() async throws {
        let exercise = "Lessons/06-async-data-source/Exercise/"
        let lines = try await Self.check(
            exercise: 6,
            .patch(exercise + "WrongFixes/AsyncStoreWithoutBarrier.patch"),
            diagnosis: "no-barrier"
        )
        let text = Self.joined(lines)
        #expect(!text.contains("writer-two-sets"), "\(lines)")
        // The reading is said once, right under the first FAIL that showed a replace missing.
        let reading = "read from your code: replace(title:items:) hands its store to queue.async"
        let readingPattern = #"read from your code: replace\(title:items:\) hands its store to queue\.async"#
        let missed = try Regex(
            #"FAIL\s+(a snapshot shows the last replace|a second replace replaces the first, title included): got "#
                + #"PlaylistSnapshot\([^)]*\)\s+"# + readingPattern
        )
        let writersStale = try Regex(
            Self.writersFail + #"\d of 8 trials ended with neither writer's version in the snapshot taken after "#
                + #"both replace\(title:items:\) calls returned, e\.g\. no title, no items\s+"# + readingPattern
        )
        let said = text.components(separatedBy: reading).count - 1
        #expect(said == (text.contains(missed) || text.contains(writersStale) ? 1 : 0), "\(lines)")
        // Said there, the check-exercise script's own reading is not said again after the summary.
        if said > 0 { #expect(!text.contains("Read from your code: a queue made with"), "\(lines)") }
        Self.expectNext(lines, hint: 7, of: 7, in: "\(exercise)hints.md")
    }
}
